import type { PageConfig } from "../shared/page-config.js";
import { type Answer, postAuth, type Reply, type SessionState } from "./api.js";
import { type Messages, messageFor } from "./messages.js";
import { showAcceptDisclaimers } from "./steps/accept-disclaimers.js";
import { type StartMessages, showIdentify } from "./steps/identify.js";
import { showNewPassword } from "./steps/new-password.js";
import { loginOtp, recoveryOtp, showOtp } from "./steps/otp.js";
import { showPassword } from "./steps/password.js";
import { showQuestion } from "./steps/question.js";
import { showSignedIn } from "./steps/signed-in.js";
import type { Step } from "./view.js";

/** spec section 3: the step the page shows for each session state. */
const stepFor: Record<SessionState, (flow: Flow, answer: Answer) => void> = {
  checkpassword: showPassword,
  checkotp: (flow, answer) => showOtp(flow, answer, loginOtp),
  setpassword: showNewPassword,
  authorized: showSignedIn,
  acceptdisclaimers: showAcceptDisclaimers,
  "recovery-checkotp": (flow, answer) => showOtp(flow, answer, recoveryOtp),
  "recovery-checkquestion": showQuestion,
  "recovery-setpassword": showNewPassword,
};

/** Answers after which the session is gone, and the user starts again. */
const sessionEnded = new Set(["auth.token.invalid", "auth.token.expired", "auth.session.invalid"]);

/**
 * One user's way through the login and recovery flows. The session token lives here, in memory
 * only: not in storage, where any script of the origin could read it, and not in the address.
 */
export class Flow {
  #token: string | undefined;
  /** The login ID typed last: shown while signing in, and filled in again. */
  loginId = "";

  constructor(readonly config: PageConfig) {}

  /** Calls an endpoint that starts a session (it takes no token); a session left unfinished is dropped. */
  begin(operation: string, body: object): Promise<Reply> {
    this.#token = undefined;
    return this.#post(operation, body);
  }

  /**
   * Makes a session begun apart from the flow its own: the passkey autofill's, begun as the first
   * step showed and taken only once the user picks a passkey.
   */
  adopt(token: string): void {
    this.#token = token;
  }

  /** Calls an endpoint of the current session, with its token. */
  send(operation: string, body: object = {}): Promise<Reply> {
    return this.#post(operation, body, this.#token);
  }

  /** Shows the step of the answer's session state. */
  next(answer: Answer): void {
    if (answer.session_state) stepFor[answer.session_state](this, answer);
  }

  /** Moves on with a successful answer, or tells why the call failed. */
  proceed(step: Step, reply: Reply, messages?: Messages): void {
    if (reply.answer.status === "success") this.next(reply.answer);
    else this.fail(step, reply, messages);
  }

  /** Tells why a call failed: on the step (or a part of it), or, when the session is gone, on a new start. */
  fail(step: Pick<Step, "error">, reply: Reply, messages?: Messages): void {
    const message = messageFor(reply, messages);
    if (this.endsSession(reply)) this.restart({ error: message });
    else step.error(message);
  }

  /** Whether the answer says the session is gone (then `fail` starts again). */
  endsSession(reply: Reply): boolean {
    return sessionEnded.has(reply.answer.error_code ?? "");
  }

  /** Forgets the session and shows the first step. */
  restart(messages: StartMessages = {}): void {
    this.end();
    showIdentify(this, messages);
  }

  end(): void {
    this.#token = undefined;
  }

  async #post(operation: string, body: object, token?: string): Promise<Reply> {
    const reply = await postAuth(this.config, operation, body, token);
    if (reply.answer.session_token) this.#token = reply.answer.session_token;
    return reply;
  }
}
