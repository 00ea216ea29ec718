import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/** The authenticator data's flags (WebAuthn Level 3, 6.1). */
const flags = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 };

export interface SoftAuthenticatorOptions {
  /** The origin the browser would put in clientDataJSON. */
  origin: string;
  /** Whether the authenticator verifies its user (a PIN, biometrics); true unless told. */
  userVerified?: boolean;
  /** A synced passkey (backup eligible and backed up): amr `swk`; else device-bound, `hwk`. */
  backedUp?: boolean;
  /** "zero": a counter that stays 0, as most synced passkeys keep; else it grows by 1 per assertion. */
  counter?: "growing" | "zero";
}

interface Credential {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

/** What a ceremony may be made to get wrong, for the tests of the checks. */
export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/**
 * A FIDO2 authenticator in software, for tests that run the WebAuthn ceremonies without a browser:
 * ES256 credentials, attestation "none", discoverable (it keeps the user handle). It answers what
 * `@simplewebauthn/server` generates with what a browser's `PublicKeyCredential.toJSON()` gives.
 */
export class SoftAuthenticator {
  readonly #credentials: Credential[] = [];

  constructor(private readonly options: SoftAuthenticatorOptions) {}

  /** The ids (base64url) of the credentials it holds, oldest first. */
  get credentialIds(): string[] {
    return this.#credentials.map((credential) => credential.id);
  }

  /** Creates a credential for the options' RP and user (navigator.credentials.create). */
  register(
    creation: PublicKeyCredentialCreationOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): RegistrationResponseJSON {
    const rpId = overrides.rpId ?? creation.rp.id ?? new URL(this.options.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credentialId = randomBytes(16);
    const credential: Credential = {
      id: base64url(credentialId),
      privateKey,
      rpId,
      userHandle: creation.user.id,
      signCount: 0,
    };
    this.#credentials.push(credential);

    const jwk = publicKey.export({ format: "jwk" });
    // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authenticatorData = Buffer.concat([
      this.#authenticatorData(rpId, overrides, flags.attested, 0),
      Buffer.alloc(16), // AAGUID: none, as attestation "none" reports.
      credentialIdLength,
      credentialId,
      isoCBOR.encode(coseKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authenticatorData],
      ]),
    );
    const transports: AuthenticatorTransport[] = ["internal"];
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: this.#clientData("webauthn.create", creation.challenge, overrides),
        attestationObject: base64url(attestationObject),
        transports,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * Signs the options' challenge with one of its credentials (navigator.credentials.get): the
   * given one, else the first the options allow, else (a discoverable login) its newest for the RP.
   */
  assert(
    request: PublicKeyCredentialRequestOptionsJSON,
    overrides: CeremonyOverrides & { credentialId?: string; signCount?: number } = {},
  ): AuthenticationResponseJSON {
    const rpId = overrides.rpId ?? request.rpId ?? new URL(this.options.origin).hostname;
    const credential = this.#credentialFor(request, overrides.credentialId);
    if (overrides.signCount !== undefined) credential.signCount = overrides.signCount;
    else if (this.options.counter !== "zero") credential.signCount += 1;
    const authenticatorData = this.#authenticatorData(rpId, overrides, 0, credential.signCount);
    const clientDataJSON = this.#clientData("webauthn.get", request.challenge, overrides);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, "base64url"))]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: base64url(authenticatorData),
        signature: base64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  #credentialFor(request: PublicKeyCredentialRequestOptionsJSON, wanted?: string): Credential {
    const allowed = new Set((request.allowCredentials ?? []).map((descriptor) => descriptor.id));
    const candidates = this.#credentials.filter((credential) =>
      wanted !== undefined ? credential.id === wanted : allowed.size === 0 || allowed.has(credential.id),
    );
    const credential = candidates.at(allowed.size === 0 ? -1 : 0);
    if (!credential) throw new Error("the soft authenticator holds no credential the options allow");
    return credential;
  }

  #authenticatorData(rpId: string, overrides: CeremonyOverrides, extraFlags: number, signCount: number) {
    const verified = overrides.userVerified ?? this.options.userVerified ?? true;
    const backup = this.options.backedUp ? flags.backupEligible | flags.backedUp : 0;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags.userPresent | (verified ? flags.userVerified : 0) | backup | extraFlags]),
      counter,
    ]);
  }

  #clientData(type: "webauthn.create" | "webauthn.get", challenge: string, overrides: CeremonyOverrides) {
    const origin = overrides.origin ?? this.options.origin;
    return base64url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }
}
