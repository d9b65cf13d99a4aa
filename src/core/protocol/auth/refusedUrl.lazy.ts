// Refusing an address a remote session may not contact (see ../../config/allowedUrls for which it may).
import { isAllowedUrl } from '../../config/allowedUrls';

/** A URL refused before anything was sent to it. */
export class RefusedUrlError extends Error {}

export function assertAllowedUrl(url: string | URL, serverUrl: string, what: string): void {
  if (!isAllowedUrl(url, serverUrl)) {
    const shown = String(url).slice(0, 120);
    throw new RefusedUrlError(`Refused ${what} ${shown}: only https addresses (or http on this machine) are contacted.`);
  }
}

