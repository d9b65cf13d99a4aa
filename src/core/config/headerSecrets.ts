// A header value is a secret, and so is the token in it: code that logs a token on its own (without "Bearer ") is
// redacted too. Class-free, so each bundle that needs it (resolution on activation, a headers helper's output in the
// host bundle) may hold its own copy.

export function addHeaderSecrets(value: string, secrets: Set<string>): void {
  secrets.add(value);
  const scheme = /^\S+\s+(\S+)$/.exec(value);
  if (scheme) secrets.add(scheme[1]);
}
