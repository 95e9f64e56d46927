import { z } from 'zod';

/**
 * Origins a URL value may point at: absolute `https://host[:port]` origins, matched exactly (scheme, host and
 * port). No path, no credentials, no wildcards. The engine checks them at start and refuses anything else.
 */
export type DeclaredOrigins = readonly string[];

/** What the engine checks on a governed output value before it leaves. */
export type GovernedOutput =
  | { kind: 'image'; origins: DeclaredOrigins }
  | { kind: 'web-page'; origins: DeclaredOrigins }
  | { kind: 'html'; origins: { images: DeclaredOrigins; pages: DeclaredOrigins } };

/**
 * Output fields whose values the engine checks before they leave (`z_image`, `z_webPage`, `z_html`): a Zod
 * registry keyed by the schema instance, found through `.optional()`, `.describe()` and checks chained after.
 */
export const governedOutputRegistry = z.registry<GovernedOutput>();

/** Options of {@link z_image} and {@link z_webPage}. */
export interface UrlOutputOptions {
  /** The origins values may lie on, e.g. `['https://images.example.com']`. */
  origins: DeclaredOrigins;
}

/** Options of {@link z_html}. */
export interface HtmlOutputOptions {
  origins: {
    /** Where `<img src>` may point. */
    images: DeclaredOrigins;
    /** Where `<a href>` may point. */
    pages: DeclaredOrigins;
  };
}

function urlOutput(output: GovernedOutput, description: string): z.ZodURL {
  // A fresh instance per field, so two fields never share one registry entry.
  const schema = z.url({ protocol: /^https$/ }).meta({ description });
  governedOutputRegistry.add(schema, output);
  return schema;
}

/**
 * An image URL in a result. A value on an origin the field does not declare (or not an absolute https URL, or one
 * carrying credentials) is withheld by its position, and the rest of the result stays. The engine never fetches it.
 *
 * @example
 * const Gallery = z.object({ photos: z.array(z_image({ origins: ['https://img.agency.example'] })) });
 */
export function z_image(options: UrlOutputOptions): z.ZodURL {
  return urlOutput({ kind: 'image', origins: [...options.origins] }, 'An image URL, to be shown, never fetched.');
}

/**
 * A web page URL in a result, checked like {@link z_image}: on an undeclared origin it is withheld by its position
 * (`pages[1].url`) and the rest of the row stays.
 *
 * @example
 * const HotelPage = z.object({ name: z.string(), url: z_webPage({ origins: ['https://www.agency.example'] }).optional() });
 */
export function z_webPage(options: UrlOutputOptions): z.ZodURL {
  return urlOutput({ kind: 'web-page', origins: [...options.origins] }, 'A web page URL, to be opened by a person.');
}

/**
 * An HTML fragment in a result. It passes unmodified only if it parses cleanly and holds nothing active (no script,
 * form, frame, inline style, event handler, `javascript:` or `data:` URL, relative link) and every image and link
 * lies on a declared origin; otherwise the whole value is withheld with a reason. It is never fetched, cleaned or
 * rewritten.
 *
 * @example
 * const Stay = z.object({ description: z_html({ origins: { images: ['https://img.agency.example'], pages: [] } }) });
 */
export function z_html(options: HtmlOutputOptions): z.ZodString {
  const schema = z.string().meta({ description: 'An HTML fragment, checked before it is passed on unmodified.' });
  governedOutputRegistry.add(schema, {
    kind: 'html',
    origins: { images: [...options.origins.images], pages: [...options.origins.pages] },
  });
  return schema;
}
