/**
 * Why projection withheld part of a result. A closed list, so clients can branch on it; a reason never names the
 * withheld value, an undeclared key or an offending URL.
 */
export const WITHHELD_REASONS = [
  /** Fields (or list items) the output contract does not declare. */
  'undeclared',
  /** A URL that is not absolute https without credentials. */
  'url_not_allowed',
  /** A URL (or an image or link inside HTML) on an origin the field does not declare. */
  'origin_not_declared',
  /** HTML that does not parse cleanly: parse errors, stray or missing end tags, a whole document. */
  'html_malformed',
  /** HTML holding a script. */
  'html_script',
  /** HTML holding a form or a form control. */
  'html_form',
  /** HTML holding a frame or embedded object (iframe, frame, object, embed). */
  'html_frame',
  /** HTML holding inline style (a style attribute or element). */
  'html_inline_style',
  /** HTML holding an event handler attribute (`onclick`, ...). */
  'html_event_handler',
  /** HTML holding a `javascript:`, `data:` or other active URL, or a URL carrying credentials. */
  'html_unsafe_url',
  /** HTML holding a relative link or image. */
  'html_relative_link',
  /** HTML holding an element outside the allowed set (svg, math, meta, base, media, ...). */
  'html_element_not_allowed',
  /** HTML holding an attribute outside the allowed set (id, name, srcset, ...). */
  'html_attribute_not_allowed',
] as const;

/** One of {@link WITHHELD_REASONS}. */
export type WithheldReason = (typeof WITHHELD_REASONS)[number];

/**
 * One place projection withheld something: a declared path (`gallery.photos[3]`, `pages[1].url`) or, for
 * undeclared fields, their parent with `.*` (`owner.*`). A list index is the item's position in the list the
 * handler or backend returned, before anything was removed.
 */
export interface WithheldValue {
  path: string;
  reason: WithheldReason;
}

/** What each reason means, in a reader's words (the notes of tool results use them). */
const REASON_TEXT: Record<WithheldReason, string> = {
  undeclared: 'not declared by the output contract',
  url_not_allowed: 'not an absolute https URL',
  origin_not_declared: 'outside the declared origins',
  html_malformed: 'HTML that does not parse cleanly',
  html_script: 'HTML with a script',
  html_form: 'HTML with a form',
  html_frame: 'HTML with a frame or embedded object',
  html_inline_style: 'HTML with inline style',
  html_event_handler: 'HTML with an event handler',
  html_unsafe_url: 'HTML with an active or credential-bearing URL',
  html_relative_link: 'HTML with a relative link',
  html_element_not_allowed: 'HTML with an element that is not allowed',
  html_attribute_not_allowed: 'HTML with an attribute that is not allowed',
};

/**
 * A sentence for a person (and a model) saying where a result was trimmed and why, or '' when nothing was. List
 * positions are the provider's own, before removal; an undeclared field is named by its parent only.
 *
 * @example
 * withheldNote([{ path: 'gallery.photos[3]', reason: 'origin_not_declared' }]);
 * // 'Withheld from this result (list positions are as the source returned them): gallery.photos[3] (outside the declared origins). Everything else passed the contract.'
 */
export function withheldNote(withheld: readonly WithheldValue[]): string {
  if (withheld.length === 0) return '';
  const places = withheld.map(({ path, reason }) => `${path} (${REASON_TEXT[reason]})`).join('; ');
  return `Withheld from this result (list positions are as the source returned them): ${places}. Everything else passed the contract.`;
}
