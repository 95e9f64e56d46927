import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from './navigation';

/** Props of {@link Link}: an anchor whose `href` is a path of this app. */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/** An in-app link: a real `<a href>` (so new-tab and copy-link work) that navigates without reloading. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    // Let the browser handle modified clicks (new tab, new window, download).
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handleClick} {...rest} />;
}
