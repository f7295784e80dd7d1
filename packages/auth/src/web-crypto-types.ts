// The WebCrypto shapes @mcpkit/auth's public types use, declared structurally: the DOM lib's `CryptoKey`
// and `JsonWebKey` are not there in a Node project (`types: ["node"]`, no DOM), and a package's types must
// not ask for a lib its user did not choose. A WebCrypto key or JWK from any runtime is one of these.

/** A WebCrypto key (`CryptoKey`), as `crypto.subtle.generateKey` / `importKey` give it on any runtime. */
export interface WebCryptoKey {
  readonly algorithm: { readonly name: string };
  readonly extractable: boolean;
  readonly type: string;
  readonly usages: readonly string[];
}

/** A JSON Web Key (RFC 7517), with the members of WebCrypto's `JsonWebKey` plus `kid`. */
export interface Jwk {
  alg?: string;
  crv?: string;
  d?: string;
  dp?: string;
  dq?: string;
  e?: string;
  ext?: boolean;
  k?: string;
  key_ops?: string[];
  kid?: string;
  kty?: string;
  n?: string;
  oth?: { d?: string; r?: string; t?: string }[];
  p?: string;
  q?: string;
  qi?: string;
  use?: string;
  x?: string;
  y?: string;
}
