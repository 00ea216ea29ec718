import type { Flow } from "../flow.js";
import { Step } from "../view.js";
import { text } from "../words.js";
import { linkProblem } from "./link-problem.js";

/**
 * The e-mail change's link (auth/email/confirm, docs/api-contract.md, "Changing the phone or the
 * e-mail"): with no session, since it may be opened on another device, it makes the new address
 * the user's, once.
 */
export async function confirmEmailLink(flow: Flow, token: string): Promise<void> {
  const reply = await flow.begin("email/confirm", { token });
  const step =
    reply.answer.status === "success"
      ? new Step(text("emailLink.title"), text("emailLink.intro"))
      : new Step(text("recoveryLink.title"));
  if (reply.answer.status !== "success") step.error(`${linkProblem(reply)} ${text("emailLink.askNew")}`);
  step.submit(text("common.signIn"), () => flow.restart());
  step.show();
}
