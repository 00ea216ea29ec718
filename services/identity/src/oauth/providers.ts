import { messageSchema } from "@auth/grpc-kit";
import { type OAuthProvider, type OAuthProviderSettings, ProviderKind } from "@auth/proto/identity";
import type { SecretBox } from "@auth/runtime";
import { z } from "zod";
import type { OAuthKindName, OAuthProviderRow } from "../schema.js";
import { normalizeRedirectUri } from "./exchange.js";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2_000);
const redirectUri = httpUrl.refine((uri) => {
  const url = new URL(uri);
  return url.search === "" && url.hash === "";
}, "must have no query or fragment");

/** RFC 6749's scope tokens (NQCHAR): printable ASCII but space, quote and backslash; acr values too. */
const token = (message: string) => z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, message);

/** The oldest provider login a slot may accept: a year. */
const maxAgeLimitSeconds = 366 * 24 * 3600;

const kindOfName: Record<OAuthKindName, ProviderKind> = {
  oidc: ProviderKind.OIDC,
  oauth2: ProviderKind.OAUTH2,
};

/** A slot's settings as an administrator may send them. */
export const providerSettings = messageSchema<OAuthProviderSettings>()(
  z
    .object({
      slot: z.number().int().min(1, "must be 1 to 5").max(5, "must be 1 to 5"),
      kind: z.enum([ProviderKind.OIDC, ProviderKind.OAUTH2], "must be OIDC or OAUTH2"),
      name: z.string().max(100),
      issuer: z.string().max(2_000),
      authorizationEndpoint: z.string().max(2_000),
      tokenEndpoint: z.string().max(2_000),
      userinfoEndpoint: z.string().max(2_000),
      clientId: z.string().min(1, "is required").max(500),
      clientSecret: z.string().max(2_000),
      redirectUris: z.array(redirectUri).min(1, "needs at least one").max(20),
      scopes: z.array(token("must be a scope token")).max(50),
      subjectClaim: z.string().max(100),
      trustsProviderMfa: z.boolean(),
      mfaAcrValues: z.array(token("must be an acr value").max(500)).max(20),
      maxAgeSeconds: z.number().int().min(0).max(maxAgeLimitSeconds, "must be at most a year"),
    })
    .superRefine((settings, context) => {
      const required =
        settings.kind === ProviderKind.OIDC
          ? (["issuer"] as const)
          : (["tokenEndpoint", "userinfoEndpoint"] as const);
      for (const field of required) {
        if (!httpUrl.safeParse(settings[field]).success) {
          context.addIssue({
            code: "custom",
            path: [field],
            message: "must be an http(s) URL for this kind",
          });
        }
      }
      // Plain OAuth 2.0 has no ID token to prove a multi-factor login or its time (auth_time).
      if (settings.kind === ProviderKind.OAUTH2) {
        const openIdConnectOnly = {
          trustsProviderMfa: settings.trustsProviderMfa,
          mfaAcrValues: settings.mfaAcrValues.length > 0,
          maxAgeSeconds: settings.maxAgeSeconds > 0,
        };
        for (const [field, set] of Object.entries(openIdConnectOnly)) {
          if (set) context.addIssue({ code: "custom", path: [field], message: "is for OpenID Connect only" });
        }
      }
    }),
);

export type ProviderInput = z.infer<typeof providerSettings>;

/**
 * The row to store for valid settings, with the slot's defaults (docs/api-contract.md, "OAuth") and
 * the secret sealed.
 */
export function toProviderRow(
  companyId: string,
  input: ProviderInput,
  sealedSecret: string,
): Omit<OAuthProviderRow, "updatedAt"> {
  return {
    companyId,
    slot: input.slot,
    kind: input.kind === ProviderKind.OIDC ? "oidc" : "oauth2",
    name: input.name || `Provider ${input.slot}`,
    issuer: input.issuer,
    authorizationEndpoint: input.authorizationEndpoint,
    tokenEndpoint: input.tokenEndpoint,
    userinfoEndpoint: input.userinfoEndpoint,
    clientId: input.clientId,
    clientSecretEncrypted: sealedSecret,
    redirectUris: input.redirectUris.map(normalizeRedirectUri),
    scopes: input.scopes.length > 0 ? input.scopes : input.kind === ProviderKind.OIDC ? ["openid"] : [],
    subjectClaim: input.subjectClaim || "sub",
    trustsProviderMfa: input.trustsProviderMfa,
    mfaAcrValues: input.mfaAcrValues,
    maxAgeSeconds: input.maxAgeSeconds,
  };
}

/** A slot as it is shown: everything but the secret, and whether it has one. */
export function toProvider(row: OAuthProviderRow, secrets: SecretBox): OAuthProvider {
  return {
    slot: row.slot,
    kind: kindOfName[row.kind],
    name: row.name,
    issuer: row.issuer,
    authorizationEndpoint: row.authorizationEndpoint,
    tokenEndpoint: row.tokenEndpoint,
    userinfoEndpoint: row.userinfoEndpoint,
    clientId: row.clientId,
    redirectUris: row.redirectUris,
    scopes: row.scopes,
    subjectClaim: row.subjectClaim,
    trustsProviderMfa: row.trustsProviderMfa,
    mfaAcrValues: row.mfaAcrValues,
    maxAgeSeconds: row.maxAgeSeconds,
    publicClient: secrets.open(row.clientSecretEncrypted) === "",
  };
}
