import {
  type AuthenticationResponseJSON,
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import type { Answer, Reply } from "./api.js";
import type { Disclaimers } from "./disclaimers.js";
import type { Flow } from "./flow.js";
import type { Messages } from "./messages.js";
import { type CeremonyFailure, ceremonyFailure } from "./passkey-failures.js";
import type { Step } from "./view.js";
import { text } from "./words.js";

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
 * A login step's passkey (checkpassword: in the password's place; checkotp: the second factor), when
 * the answer offers one and the browser can use one: the button `place` makes asks for the
 * assertion and sends it with the step's disclaimers. A refusal updates the disclaimers. A passkey
 * refused after it was checked has spent the login's challenge, and no refusal brings another: its
 * button goes, and the user goes on another way or signs in again.
 */
export function offerPasskey(
  flow: Flow,
  step: Step,
  answer: Answer,
  disclaimers: Disclaimers,
  place: (check: () => Promise<void>) => HTMLButtonElement,
): void {
  const options = answer.passkey_options;
  if (!passkeyOffered(options)) return;
  const button = place(async () => {
    const reply = await checkPasskey(flow, step, await assertion(options), disclaimers.fields(), {
      "auth.passkey.invalid": text("passkeyCeremony.spent"),
    });
    const refusal = reply?.answer;
    if (!refusal || refusal.status === "success") return;
    if (refusal.disclaimers_required) disclaimers.update(refusal.disclaimers_required);
    if (refusal.error_code === "auth.passkey.invalid") button.hidden = true;
  });
}
