import { z } from 'zod';
import {
  ImageProvider_Background,
  ImageProvider_OutputFormat,
  ImageProvider_Quality,
  ImageProvider_Size,
} from './agents.enums.js';

const zodSchema = z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'a Zod schema');

/** `GENERATE_STRUCTURED` input: the prompt and the Zod contract the answer must satisfy. */
export const LLMProvider_GenerateStructuredInputSchema = z.object({ prompt: z.string().min(1), schema: zodSchema });
/** `GENERATE_STRUCTURED` output: the validated object. */
export const LLMProvider_GenerateStructuredOutputSchema = z.object({ object: z.unknown() });

/** One message of a conversation. */
export const LLMChatMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string() });
/** `CHAT_COMPLETION` input. */
export const LLMProvider_ChatCompletionInputSchema = z.object({ messages: z.array(LLMChatMessageSchema).min(1) });
/** `CHAT_COMPLETION` output: the assistant's reply. */
export const LLMProvider_ChatCompletionOutputSchema = z.object({ message: z.string() });

/** Per-call context of a language-model operation. */
export const LLMProvider_OperationContext_BaseSchema = z.object({ callTimestamp: z.string() });

/** `GENERATE_IMAGE` input. */
export const ImageProvider_GenerateImageInputSchema = z.object({ prompt: z.string().min(1) });
/** One generated image. */
export const GeneratedImageSchema = z.object({ base64: z.string(), mediaType: z.string() });
/** `GENERATE_IMAGE` output. */
export const ImageProvider_GenerateImageOutputSchema = z.object({ images: z.array(GeneratedImageSchema) });
export type ImageProvider_GenerateImageOutput = z.infer<typeof ImageProvider_GenerateImageOutputSchema>;
/** Per-call context of an image operation. */
export const ImageProvider_OperationContext_BaseSchema = z.object({ callTimestamp: z.string() });

/** Image settings an image agent's config may carry. */
export const ImageSettingsSchema = z.object({
  size: z.enum(ImageProvider_Size).optional(),
  quality: z.enum(ImageProvider_Quality).optional(),
  background: z.enum(ImageProvider_Background).optional(),
  outputFormat: z.enum(ImageProvider_OutputFormat).optional(),
  n: z.number().int().min(1).max(4).optional(),
});
