// Node's network error codes (ENOTFOUND, ECONNREFUSED, certificate errors, …) in words a person reads: what went
// wrong and where to look. The code itself belongs in the log's detail, not in a notification or a row.

const PROBLEMS: Record<string, string> = {
  ENOTFOUND: 'its address could not be found (no network connection, a DNS problem, or a mistyped address)',
  EAI_AGAIN: 'its address could not be looked up right now (the network or its DNS is not answering)',
  ECONNREFUSED: 'nothing accepted the connection at that address',
  ECONNRESET: 'the connection was dropped',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the network cannot reach that machine',
  ENETUNREACH: 'there is no network route to it (are you offline?)',
  EPROTO: 'the secure connection could not be set up',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is not trusted (a proxy that inspects traffic needs its certificate installed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate is not trusted (a proxy that inspects traffic needs its certificate installed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate could not be verified (a proxy that inspects traffic needs its certificate installed)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate could not be verified (a proxy that inspects traffic needs its certificate installed)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another address',
};

/** Words for a network error code; codes not known here read as a network error in general. */
export function networkProblem(code: string | undefined): string {
  return (code && PROBLEMS[code]) || 'the network request failed';
}

/** The code of a failed `fetch` (Node puts it on the error's cause), if any. */
export function networkErrorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/** The first network error code known here that `text` names (errors that reach us only as a message, e.g. SSE's). */
export function networkCodeIn(text: string): string | undefined {
  return Object.keys(PROBLEMS).find((code) => text.includes(code));
}
