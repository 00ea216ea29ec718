import { AuthError } from "@auth/errors";
import type { PasskeySettings } from "@auth/proto/identity";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import type { PasskeyRow } from "../schema.js";
import { simpleWebAuthn } from "./simplewebauthn.js";

/**
 * The two WebAuthn ceremonies with @simplewebauthn/server, against a company's relying party
 * (docs/decisions.md, "Passkeys"). The challenge is the session service's (base64url of 32 bytes):
 * given to the options as its bytes, so that the options carry that very string, which the
 * verification expects.
 */

/** A credential as the options name it: its id and how the authenticator is reached. */
type CredentialDescriptor = Pick<PasskeyRow, "credentialId" | "transports">;

const descriptorOf = (credential: CredentialDescriptor) => ({
  id: credential.credentialId,
  transports: credential.transports,
});

type Helpers = Awaited<ReturnType<typeof simpleWebAuthn>>["helpers"];

/**
 * The algorithms a new passkey may have, offered and then checked: named here, not left to the
 * library's default, which adds ML-DSA-44 wherever the runtime's WebCrypto has it
 * (docs/decisions.md, "Passkeys").
 */
const algorithmsOf = ({ COSEALG }: Helpers) => [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

/** The user handle of a user: the user's id as UTF-8, which holds nothing personal. */
const userHandleOf = ({ isoUint8Array }: Helpers, userId: string) => isoUint8Array.fromUTF8String(userId);

/** The options of a login's assertion (PublicKeyCredentialRequestOptionsJSON), as JSON. */
export async function assertionOptions(
  relyingParty: PasskeySettings,
  challenge: string,
  allowed: readonly CredentialDescriptor[],
  userVerification: "required" | "preferred",
): Promise<string> {
  const { server, helpers } = await simpleWebAuthn();
  const options = await server.generateAuthenticationOptions({
    rpID: relyingParty.rpId,
    challenge: helpers.isoBase64URL.toBuffer(challenge),
    allowCredentials: allowed.map(descriptorOf),
    userVerification,
  });
  return JSON.stringify(options);
}

/**
 * The options of a new passkey of the user (PublicKeyCredentialCreationOptionsJSON), as JSON: a
 * discoverable credential (a login without a login ID finds it), the user's passkeys excluded, no
 * attestation.
 */
export async function registrationOptions(
  relyingParty: PasskeySettings,
  challenge: string,
  user: { id: string; name: string; companyName: string },
  existing: readonly CredentialDescriptor[],
): Promise<string> {
  const { server, helpers } = await simpleWebAuthn();
  const options = await server.generateRegistrationOptions({
    rpName: user.companyName,
    rpID: relyingParty.rpId,
    userID: userHandleOf(helpers, user.id),
    userName: user.name,
    userDisplayName: user.name,
    challenge: helpers.isoBase64URL.toBuffer(challenge),
    attestationType: "none",
    excludeCredentials: existing.map(descriptorOf),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    supportedAlgorithmIDs: algorithmsOf(helpers),
  });
  return JSON.stringify(options);
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/, "must be base64url");
const credentialFields = {
  id: base64url.min(1).max(1_400),
  rawId: base64url.max(1_400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.looseObject({}),
};
const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});
const registrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.string().max(50)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
});

/** The browser's JSON of a ceremony's answer, checked for its shape; request.validation.failed otherwise. */
function parseCeremonyJson<S extends z.ZodType>(schema: S, json: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new AuthError("request.validation.failed", { detail: "response_json: must be JSON" });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const detail = result.error.issues.map(
    (issue) => `response_json.${issue.path.join(".") || "(root)"}: ${issue.message}`,
  );
  throw new AuthError("request.validation.failed", { detail: detail.join("; ") });
}

export const parseAssertion = (json: string): AuthenticationResponseJSON =>
  parseCeremonyJson(authenticationResponse, json);

export const parseAttestation = (json: string): RegistrationResponseJSON =>
  parseCeremonyJson(registrationResponse, json);

/** What a verified assertion says: the authenticator's counter, user verification and backup state. */
export interface VerifiedAssertion {
  signCount: number;
  userVerified: boolean;
  backedUp: boolean;
}

/**
 * Whether the assertion is of this credential and answers the challenge, from one of the relying
 * party's origins, for its RP ID, with user verification when it is required: what it says then, or
 * undefined. The sign counter is not judged here (the credential is given with 0, which the library
 * lets pass): whether it grew is the store's to decide, after the signature verified, so that only
 * a verified assertion can make a credential clone-suspect.
 */
export async function verifyAssertion(
  relyingParty: PasskeySettings,
  challenge: string,
  assertion: AuthenticationResponseJSON,
  credential: Pick<PasskeyRow, "credentialId" | "publicKey" | "transports" | "userId">,
  requireUserVerification: boolean,
): Promise<VerifiedAssertion | undefined> {
  const { server, helpers } = await simpleWebAuthn();
  // The user handle, where the authenticator gives one, must be the credential's user's.
  const { userHandle } = assertion.response;
  if (
    userHandle !== undefined &&
    userHandle !== helpers.isoBase64URL.fromBuffer(userHandleOf(helpers, credential.userId))
  )
    return undefined;
  try {
    const { verified, authenticationInfo } = await server.verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.rpId,
      credential: {
        id: credential.credentialId,
        publicKey: credential.publicKey,
        counter: 0,
        transports: credential.transports,
      },
      requireUserVerification,
    });
    if (!verified) return undefined;
    return {
      signCount: authenticationInfo.newCounter,
      userVerified: authenticationInfo.userVerified,
      backedUp: authenticationInfo.credentialBackedUp,
    };
  } catch {
    // The library throws for every way an assertion is wrong (origin, RP ID, challenge, flags).
    return undefined;
  }
}

/** A new credential, as a verified registration gives it; undefined when it did not verify. */
export async function verifyAttestation(
  relyingParty: PasskeySettings,
  challenge: string,
  attestation: RegistrationResponseJSON,
) {
  const { server, helpers } = await simpleWebAuthn();
  try {
    const { verified, registrationInfo } = await server.verifyRegistrationResponse({
      response: attestation,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.rpId,
      // The options prefer user verification; an authenticator that cannot is still a second factor.
      requireUserVerification: false,
      supportedAlgorithmIDs: algorithmsOf(helpers),
    });
    if (!verified) return undefined;
    return {
      credentialId: registrationInfo.credential.id,
      publicKey: registrationInfo.credential.publicKey,
      signCount: registrationInfo.credential.counter,
      transports: registrationInfo.credential.transports ?? [],
      backedUp: registrationInfo.credentialBackedUp,
      userVerified: registrationInfo.userVerified,
    };
  } catch {
    return undefined;
  }
}
