// Stands in for `jose` where the SDK loads it (see esbuild.js): the six functions its private-key JWT and DPoP
// providers call, so that the host bundle holds those and what they need, not all of jose (JWE, JWKS fetching, …).
export { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, importPKCS8 } from 'jose';
