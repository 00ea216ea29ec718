import type { Passkey } from "@auth/proto/identity";
import { z } from "zod";

/**
 * The WebAuthn objects the passkey endpoints take and answer (docs/api-contract.md, "Passkeys"), in
 * the JSON of WebAuthn Level 3 (PublicKeyCredential.toJSON, parseRequestOptionsFromJSON,
 * parseCreationOptionsFromJSON). The gateway checks their shape and size only; identity verifies
 * them (docs/decisions.md, "Passkeys").
 */

/** Binary data as WebAuthn's JSON carries it: base64url, at most `maxLength` characters. */
const base64url = (maxLength: number) =>
  z
    .string("must be a string")
    .min(1, "must not be empty")
    .max(maxLength)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/** A credential id: at most 1,023 bytes (WebAuthn Level 3, "Credential ID"). */
const credentialId = base64url(1_366);

const transports = z
  .array(z.string("must be a string").max(32), "must be an array of strings")
  .max(10)
  .describe("How the authenticator can be reached: usb, nfc, ble, internal, hybrid");

/** What every public-key credential of the browser's answer has besides its `response`. */
const credentialFields = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key", 'must be "public-key"'),
  clientExtensionResults: z
    .record(z.string(), z.unknown(), "must be an object")
    .describe("The client's extension outputs, as the browser gives them"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** The browser's assertion at login (AuthenticationResponseJSON). */
export const passkeyAssertion = z
  .object(
    {
      ...credentialFields,
      response: z.object(
        {
          clientDataJSON: base64url(4_096),
          authenticatorData: base64url(4_096),
          signature: base64url(2_048),
          userHandle: base64url(128).optional(),
        },
        "must be an object",
      ),
    },
    "must be an object",
  )
  .describe("The browser's assertion: PublicKeyCredential.toJSON() of navigator.credentials.get()");

/** The authenticator's new credential (RegistrationResponseJSON); attestation is not asked for. */
export const passkeyRegistration = z
  .object(
    {
      ...credentialFields,
      response: z.object(
        {
          clientDataJSON: base64url(4_096),
          attestationObject: base64url(10_000),
          authenticatorData: base64url(4_096).optional(),
          transports: transports.optional(),
          publicKeyAlgorithm: z.number("must be a number").int().optional(),
          publicKey: base64url(2_048).optional(),
        },
        "must be an object",
      ),
    },
    "must be an object",
  )
  .describe("The new credential: PublicKeyCredential.toJSON() of navigator.credentials.create()");

const credentialDescriptor = z.looseObject({
  id: z.string(),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});

const userVerification = z.enum(["required", "preferred", "discouraged"]);

/** The options of a login's assertion (PublicKeyCredentialRequestOptionsJSON), bound to the session. */
export const passkeyRequestOptions = z
  .looseObject({
    challenge: z.string().describe("base64url; single use, bound to the session"),
    rpId: z.string().optional(),
    timeout: z.number().optional(),
    allowCredentials: z
      .array(credentialDescriptor)
      .optional()
      .describe("The user's passkeys; absent for a login without a login ID (the browser offers its own)"),
    userVerification: userVerification.optional(),
  })
  .describe(
    "PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get (PublicKeyCredential.parseRequestOptionsFromJSON); answer at auth/checkpasskey",
  );

export type PasskeyRequestOptions = z.output<typeof passkeyRequestOptions>;

/** The options of a new passkey (PublicKeyCredentialCreationOptionsJSON), bound to the session. */
export const passkeyCreationOptions = z
  .looseObject({
    rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string().describe("base64url; single use, bound to the session"),
    pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.literal("public-key") })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional().describe("The user's passkeys"),
    authenticatorSelection: z.looseObject({}).optional(),
    attestation: z.string().optional(),
  })
  .describe(
    "PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create (PublicKeyCredential.parseCreationOptionsFromJSON); answer at auth/passkeys/confirm",
  );

/** Names one of the user's passkeys (Passkey.id). */
export const passkeyId = z.uuid("must be a UUID");

/** The user's name for a passkey. */
export const passkeyName = z.string("must be a string").min(1, "must not be empty").max(64);

const time = (description: string) => z.string().describe(`${description} (RFC 3339, UTC)`);

/** One of the user's passkeys, as the user sees it: never its public key. */
export const passkeyObject = z.strictObject({
  id: z.string().describe("Names the passkey to auth/passkeys/rename and auth/passkeys/remove"),
  name: z.string().describe('The user\'s name for it; "Passkey" until named'),
  kind: z
    .enum(["synced", "device-bound"])
    .describe(
      "synced: backed up, shared between the user's devices (amr swk); device-bound: one authenticator (amr hwk)",
    ),
  transports,
  user_verified: z
    .boolean()
    .describe("The authenticator has verified the user (PIN, biometrics) at least once"),
  created_at: time("When it was added"),
  last_used_at: time("When it last signed the user in").optional(),
  clone_suspected: z
    .boolean()
    .describe("Its signature counter went back once: it may have been copied, and is refused from then on"),
});

/** A passkey as identity holds it, as the API shows it. */
export function passkeyObjectOf(given: Passkey): z.output<typeof passkeyObject> {
  return {
    id: given.id,
    name: given.name,
    kind: given.backedUp ? "synced" : "device-bound",
    transports: given.transports,
    user_verified: given.userVerified,
    created_at: (given.createdAt ?? new Date(0)).toISOString(),
    last_used_at: given.lastUsedAt?.toISOString(),
    clone_suspected: given.cloneSuspected,
  };
}

/** What the OpenAPI document shows of the options and a passkey. */
export const passkeyExamples: {
  requestOptions: PasskeyRequestOptions;
  creationOptions: z.output<typeof passkeyCreationOptions>;
  passkey: z.output<typeof passkeyObject>;
  assertion: z.input<typeof passkeyAssertion>;
  registration: z.input<typeof passkeyRegistration>;
} = {
  requestOptions: {
    challenge: "mR8zqkOiQv6Gv7Yc3b1kOq0Zk9nY2sKx4Lw5Jt8Pq2E",
    rpId: "acme.example",
    timeout: 60_000,
    allowCredentials: [
      { id: "8sJx2yV0c3Nw4QbT7kLm1A", type: "public-key", transports: ["internal", "hybrid"] },
    ],
    userVerification: "required",
  },
  creationOptions: {
    rp: { name: "Acme", id: "acme.example" },
    user: { id: "dXNyXzAxSkQ2WDRNMlE", name: "ann@acme.example", displayName: "ann@acme.example" },
    challenge: "mR8zqkOiQv6Gv7Yc3b1kOq0Zk9nY2sKx4Lw5Jt8Pq2E",
    pubKeyCredParams: [
      { alg: -8, type: "public-key" },
      { alg: -7, type: "public-key" },
      { alg: -257, type: "public-key" },
    ],
    timeout: 60_000,
    excludeCredentials: [],
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "preferred",
    },
    attestation: "none",
  },
  passkey: {
    id: "3f0c2a8e-5b7d-4e19-9a64-1d2c7b8e9f30",
    name: "Laptop",
    kind: "synced",
    transports: ["internal", "hybrid"],
    user_verified: true,
    created_at: "2026-11-24T07:05:40.000Z",
    last_used_at: "2026-11-25T08:12:03.000Z",
    clone_suspected: false,
  },
  assertion: {
    id: "8sJx2yV0c3Nw4QbT7kLm1A",
    rawId: "8sJx2yV0c3Nw4QbT7kLm1A",
    type: "public-key",
    response: {
      clientDataJSON:
        "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoibVI4enFrT2lRdjZHdjdZYzNiMWtPcTBaazluWTJzS3g0THc1SnQ4UHEyRSIsIm9yaWdpbiI6Imh0dHBzOi8vbG9naW4uYWNtZS5leGFtcGxlIn0",
      authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
      signature:
        "MEUCIQDxkGq1bB9e4n5ZrK2Yc8dJ3xWmQp0aT7uV6sL1oN2hIgIgR4tYw8zX3cV5bN7mK9jH1gF2dS4aQ6pO8iU0yT3rE5w",
      userHandle: "dXNyXzAxSkQ2WDRNMlE",
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  },
  registration: {
    id: "8sJx2yV0c3Nw4QbT7kLm1A",
    rawId: "8sJx2yV0c3Nw4QbT7kLm1A",
    type: "public-key",
    response: {
      clientDataJSON:
        "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoibVI4enFrT2lRdjZHdjdZYzNiMWtPcTBaazluWTJzS3g0THc1SnQ4UHEyRSIsIm9yaWdpbiI6Imh0dHBzOi8vbG9naW4uYWNtZS5leGFtcGxlIn0",
      attestationObject:
        "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVikSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NdAAAAAA",
      transports: ["internal", "hybrid"],
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  },
};
