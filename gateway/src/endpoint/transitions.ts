import type { StateName } from "./states.js";

interface TransitionOf<O extends string> {
  /** null: the operation starts a session (no token); "any": every state. */
  from: StateName | null | "any";
  operation: O;
  condition: string;
  /** null: no session token results. */
  to: StateName | null;
}

/**
 * Spec section 3, as data: the one place that says which operation may move a session from which
 * state to which. docs/api-contract.md, "Recovery", settles the two points the spec leaves open:
 * checkquestion takes `recovery-checkquestion`, and checklink turns a mail link into
 * `recovery-setpassword`.
 */
export const transitions = [
  { from: null, operation: "login", condition: "user has a password", to: "checkpassword" },
  { from: null, operation: "login", condition: "user has no password", to: "checkotp" },
  { from: "checkpassword", operation: "checkpassword", condition: "second factor required", to: "checkotp" },
  {
    from: "checkpassword",
    operation: "checkpassword",
    condition: "new password must be set",
    to: "setpassword",
  },
  {
    from: "checkpassword",
    operation: "checkpassword",
    condition: "nothing further required",
    to: "authorized",
  },
  { from: null, operation: "checkcredentials", condition: "second factor required", to: "checkotp" },
  { from: null, operation: "checkcredentials", condition: "new password must be set", to: "setpassword" },
  { from: null, operation: "checkcredentials", condition: "nothing further required", to: "authorized" },
  { from: "checkotp", operation: "checkotp", condition: "new password must be set", to: "setpassword" },
  { from: "checkotp", operation: "checkotp", condition: "nothing further required", to: "authorized" },
  { from: "checkotp", operation: "renewotp", condition: "always", to: "checkotp" },
  { from: "setpassword", operation: "setpassword", condition: "success", to: "authorized" },
  // Beyond the spec's table (docs/decisions.md, "OAuth"): the company's second factor after a provider's login.
  { from: null, operation: "oauth", condition: "second factor required", to: "checkotp" },
  { from: null, operation: "oauth", condition: "disclaimers must be accepted", to: "acceptdisclaimers" },
  { from: null, operation: "oauth", condition: "no disclaimers needed", to: "authorized" },
  {
    from: "acceptdisclaimers",
    operation: "acceptdisclaimers",
    condition: "all required codes supplied",
    to: "authorized",
  },
  { from: null, operation: "recovery/recover", condition: "method PHONE", to: "recovery-checkotp" },
  { from: null, operation: "recovery/recover", condition: "method QUESTION", to: "recovery-checkquestion" },
  { from: null, operation: "recovery/recover", condition: "method MAIL", to: null },
  {
    from: "recovery-checkotp",
    operation: "recovery/checkotp",
    condition: "OTP valid",
    to: "recovery-setpassword",
  },
  { from: "recovery-checkotp", operation: "recovery/renewotp", condition: "always", to: "recovery-checkotp" },
  { from: "recovery-setpassword", operation: "setpassword", condition: "success", to: null },
  {
    from: "recovery-checkquestion",
    operation: "recovery/checkquestion",
    condition: "answer valid",
    to: "recovery-setpassword",
  },
  { from: null, operation: "recovery/checklink", condition: "link valid", to: "recovery-setpassword" },
  { from: "any", operation: "logout", condition: "valid token", to: null },
  // Beyond the spec (docs/api-contract.md, "Session management"): the token stays as it is.
  { from: "authorized", operation: "sessions", condition: "always", to: "authorized" },
  {
    from: "authorized",
    operation: "sessions/end",
    condition: "another session, or the others, ended",
    to: "authorized",
  },
  { from: "authorized", operation: "sessions/end", condition: "the caller's own session ended", to: null },
  // Beyond the spec (docs/api-contract.md, "The user's security events"): the token stays as it is.
  { from: "authorized", operation: "events", condition: "always", to: "authorized" },
  // Beyond the spec (docs/api-contract.md, "Authenticator app"): the token stays as it is.
  { from: "authorized", operation: "totp/enrol", condition: "always", to: "authorized" },
  {
    from: "authorized",
    operation: "totp/confirm",
    condition: "code of the pending secret",
    to: "authorized",
  },
  // Beyond the spec (docs/api-contract.md, "Passkeys"): a passkey in the places of the factors it
  // proves, in the spec's states (docs/decisions.md, "Passkeys").
  {
    from: null,
    operation: "passkeys/start",
    condition: "a login without a login ID, the company letting a passkey replace the password",
    to: "checkpassword",
  },
  {
    from: "checkpassword",
    operation: "checkpasskey",
    condition: "user-verified passkey, new password must be set",
    to: "setpassword",
  },
  {
    from: "checkpassword",
    operation: "checkpasskey",
    condition: "user-verified passkey, nothing further required",
    to: "authorized",
  },
  {
    from: "checkpassword",
    operation: "checkpasskey",
    condition: "user-verified passkey of a login without a login ID, disclaimers must be accepted",
    to: "acceptdisclaimers",
  },
  { from: "checkotp", operation: "checkpasskey", condition: "new password must be set", to: "setpassword" },
  { from: "checkotp", operation: "checkpasskey", condition: "nothing further required", to: "authorized" },
  { from: "authorized", operation: "passkeys/enrol", condition: "always", to: "authorized" },
  {
    from: "authorized",
    operation: "passkeys/confirm",
    condition: "the authenticator's answer to the options",
    to: "authorized",
  },
  { from: "authorized", operation: "passkeys/list", condition: "always", to: "authorized" },
  {
    from: "authorized",
    operation: "passkeys/rename",
    condition: "one of the user's passkeys",
    to: "authorized",
  },
  {
    from: "authorized",
    operation: "passkeys/remove",
    condition: "one of the user's passkeys",
    to: "authorized",
  },
  { from: "authorized", operation: "backupcodes/generate", condition: "always", to: "authorized" },
  // Beyond the spec (docs/api-contract.md, "Changing the password"): a new token, or none.
  {
    from: "authorized",
    operation: "password/change",
    condition: "password changed, this session stays",
    to: "authorized",
  },
  {
    from: "authorized",
    operation: "password/change",
    condition: "password changed, this session ended",
    to: null,
  },
  // Beyond the spec (docs/api-contract.md, "Changing the phone or the e-mail"): the token stays as
  // it is; the e-mail's link is confirmed with the API key alone, and makes no session.
  { from: "authorized", operation: "phone/change", condition: "always", to: "authorized" },
  {
    from: "authorized",
    operation: "phone/confirm",
    condition: "code sent to the new phone",
    to: "authorized",
  },
  { from: "authorized", operation: "email/change", condition: "always", to: "authorized" },
  { from: null, operation: "email/confirm", condition: "link valid", to: null },
] as const satisfies readonly TransitionOf<string>[];

/**
 * Beyond the table: the operations that neither take a session nor make one, reads of what the
 * company shows to anyone with its API key (docs/api-contract.md, "Brand").
 */
export const sessionless = ["brand"] as const;

/** The operations of the table and the sessionless ones: routes.ts has one endpoint for each. */
export type Operation = (typeof transitions)[number]["operation"] | (typeof sessionless)[number];

export type Transition = TransitionOf<Operation>;

/** Whether the operation takes a session token, as the table says: a move from a state. */
export type TakesToken<O extends Operation> = [
  Extract<(typeof transitions)[number], { operation: O; from: StateName | "any" }>,
] extends [never]
  ? false
  : true;

/** The states a token must be in for the operation; empty when the operation takes no token. */
export function statesFor(operation: Operation): ReadonlySet<StateName | "any"> {
  const states = new Set<StateName | "any">();
  for (const transition of transitions) {
    if (transition.operation === operation && transition.from !== null) states.add(transition.from);
  }
  return states;
}

export function takesToken(operation: Operation): boolean {
  return statesFor(operation).size > 0;
}

/** Throws when the table has no such move: a handler that tries one is a bug, not a client error. */
export function assertTransition(operation: Operation, from: StateName | null, to: StateName | null): void {
  const allowed = transitions.some(
    (t) =>
      t.operation === operation && (t.from === from || (t.from === "any" && from !== null)) && t.to === to,
  );
  if (!allowed) throw new Error(`no transition ${from ?? "(none)"} -> ${to ?? "(none)"} for ${operation}`);
}
