import { Fragment } from 'react';

/** An endpoint URL shown in full, allowed to wrap after `/`, `?` and `&` rather than mid-word on narrow screens. */
export function ResourceUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=[/?&])(?!\/)/);
  return (
    <code className="url">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
}
