/** Tokens from one token response, with the absolute expiry computed on receipt. */
export interface TokenSet {
  access_token: string;
  /** `Bearer` or `DPoP` (as the token endpoint said; compare case-insensitively). */
  token_type: string;
  refresh_token?: string;
  /** The granted scope when the server said it, else the requested one. */
  scope?: string;
  /** Epoch milliseconds after which the access token is treated as expired. */
  expires_at?: number;
}

/** A client registration with one authorization server: pre-registered, CIMD or dynamic. */
export interface ClientRegistration {
  client_id: string;
  client_secret?: string;
  /** How to authenticate at the token endpoint (`client_secret_basic`, `client_secret_post`, `none`, `private_key_jwt`). */
  token_endpoint_auth_method?: string;
  /** Epoch seconds when the secret expires (RFC 7591), 0 or absent for never. */
  client_secret_expires_at?: number;
  /** How the id was obtained. */
  source?: "static" | "cimd" | "dynamic";
}

/**
 * What the client keeps per authorization server issuer: its registration there and the tokens it holds
 * for each resource (keyed by the RFC 8707 resource URI). Credentials never move between issuers.
 */
export interface IssuerCredentials {
  client?: ClientRegistration;
  tokens?: Record<string, TokenSet>;
}

/**
 * Where an auth provider keeps credentials, keyed by authorization server `issuer`. Implement it over a
 * keychain or an encrypted file for persistence; values are plain JSON. Calls for one issuer are made
 * one at a time by one provider.
 */
export interface TokenStore {
  /** The credentials held for `issuer`, or undefined. */
  get(issuer: string): Promise<IssuerCredentials | undefined> | IssuerCredentials | undefined;
  /** Replaces the credentials held for `issuer`. */
  set(issuer: string, credentials: IssuerCredentials): Promise<void> | void;
  /** Forgets everything held for `issuer`. */
  delete(issuer: string): Promise<void> | void;
}

/**
 * The default {@link TokenStore}: a Map in memory, lost when the process ends. Values are copied on the way
 * in and out, so a caller cannot mutate the stored record by accident.
 */
export function createInMemoryTokenStore(): TokenStore {
  const map = new Map<string, IssuerCredentials>();
  return {
    get: (issuer) => {
      const value = map.get(issuer);
      return value === undefined ? undefined : structuredClone(value);
    },
    set: (issuer, credentials) => {
      map.set(issuer, structuredClone(credentials));
    },
    delete: (issuer) => {
      map.delete(issuer);
    },
  };
}
