import { z } from 'zod';
import type { FileFieldOptions, ResolvedRagSourceOptions } from './zod-decorators.schema.js';

/**
 * Metadata of fields marked with `.ragSource()`. A Zod v4 registry keyed by the schema instance, so
 * the engine finds the marker wherever the field sits (`.optional()` wraps but keeps the inner instance,
 * and checks chained after `.ragSource()` inherit it through Zod's parent link). Read it with `get()`.
 */
export const ragSourceRegistry = z.registry<ResolvedRagSourceOptions>();

/** Metadata of fields declared with `z_file(...)`. */
export const fileFieldRegistry = z.registry<FileFieldOptions>();
