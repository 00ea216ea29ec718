import {
  type AuthenticationResponseJSON,
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import type { Reply } from "./api.js";
import type { Disclaimers } from "./disclaimers.js";
import type { Flow } from "./flow.js";
import type { Messages } from "./messages.js";
import { type CeremonyFailure, ceremonyFailure } from "./passkey-failures.js";
import type { Step } from "./view.js";

/** What the browser gave for a ceremony: the authenticator's answer, or why there is none. */
export type Ceremony<Credential> = { credential: Credential } | CeremonyFailure;

/** Asks the browser for a passkey's assertion: in a dialog, or offered in the login ID's autofill. */
export async function assertion(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  how: "dialog" | "autofill" = "dialog",
): Promise<Ceremony<AuthenticationResponseJSON>> {
  try {
    return {
      credential: await startAuthentication({ optionsJSON, useBrowserAutofill: how === "autofill" }),
    };
  } catch (error) {
    return ceremonyFailure(error);
  }
}

/** Asks the browser to make a new passkey. */
export async function registration(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<Ceremony<RegistrationResponseJSON>> {
  try {
    return { credential: await startRegistration({ optionsJSON }) };
  } catch (error) {
    return ceremonyFailure(error);
  }
}

/**
 * A passkey's assertion for a login step, sent with the step's other fields (the disclaimers) to
 * auth/checkpasskey, and the step moved on or told why not. The reply, or undefined when the
 * browser gave no assertion (the step tells why, when there is something to tell).
 */
export async function checkPasskey(
  flow: Flow,
  step: Step,
  ceremony: Ceremony<AuthenticationResponseJSON>,
  fields: object = {},
  messages?: Messages,
): Promise<Reply | undefined> {
  if (!("credential" in ceremony)) {
    if (ceremony.failure) step.error(ceremony.failure);
    return undefined;
  }
  const reply = await flow.send("checkpasskey", { credential: ceremony.credential, ...fields });
  flow.proceed(step, reply, messages);
  return reply;
}

/** Whether a login step offers a passkey: the answer has its options, and the browser can use one. */
export function passkeyOffered(
  options: PublicKeyCredentialRequestOptionsJSON | undefined,
): options is PublicKeyCredentialRequestOptionsJSON {
  return options !== undefined && browserSupportsWebAuthn();
}

/**
 * What a login step's passkey button does, when the answer offers a passkey and the browser can use
 * one: the assertion, sent with the step's disclaimers; a refusal updates the disclaimers, and the
 * options when it brings new ones.
 */
export function passkeyCheck(
  flow: Flow,
  step: Step,
  offered: PublicKeyCredentialRequestOptionsJSON | undefined,
  disclaimers: Disclaimers,
): (() => Promise<void>) | undefined {
  if (!passkeyOffered(offered)) return undefined;
  let options = offered;
  return async () => {
    const reply = await checkPasskey(flow, step, await assertion(options), disclaimers.fields());
    const refusal = reply?.answer;
    if (!refusal || refusal.status === "success") return;
    if (refusal.disclaimers_required) disclaimers.update(refusal.disclaimers_required);
    if (refusal.passkey_options) options = refusal.passkey_options;
  };
}
