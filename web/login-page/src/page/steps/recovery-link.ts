import { pageRoutes } from "../../shared/page-config.js";
import type { Flow } from "../flow.js";
import { Step } from "../view.js";
import { text } from "../words.js";
import { confirmEmailLink } from "./email-link.js";
import { linkProblem } from "./link-problem.js";
import { showRecoveryStart } from "./recovery-start.js";

/**
 * The links to the recovery page: the recovery e-mail's (`token`, auth/recovery/checklink,
 * docs/api-contract.md, "Recovery"), whose token starts recovery-setpassword, and the e-mail
 * change's (`email_token`, email-link.ts).
 */
export async function checkRecoveryLink(flow: Flow): Promise<void> {
  const query = new URLSearchParams(location.search);
  // A link works once: its token leaves the address bar and the history.
  history.replaceState(null, "", pageRoutes.start);
  const emailToken = query.get("email_token");
  if (emailToken !== null) {
    await confirmEmailLink(flow, emailToken);
    return;
  }
  const reply = await flow.begin("recovery/checklink", { token: query.get("token") ?? "" });
  if (reply.answer.status === "success") {
    flow.next(reply.answer);
    return;
  }
  const step = new Step(text("recoveryLink.title"));
  step.error(`${linkProblem(reply)} ${text("recoveryLink.askNew")}`);
  step.submit(text("recoveryLink.recover"), () => showRecoveryStart(flow));
  step.action(text("common.backToSignIn"), () => flow.restart());
  step.show();
}
