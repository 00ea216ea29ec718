import type { Answer } from "../api.js";
import { Disclaimers } from "../disclaimers.js";
import type { Flow } from "../flow.js";
import { Step } from "../view.js";
import { text } from "../words.js";

/** acceptdisclaimers (after OAuth): the disclaimers to accept before the session is authorized. */
export function showAcceptDisclaimers(flow: Flow, answer: Answer): void {
  const step = new Step(text("acceptDisclaimers.title"), text("acceptDisclaimers.intro"));
  const disclaimers = new Disclaimers(step, answer.disclaimers_required ?? []);
  step.submit(text("common.continue"), async () => {
    const reply = await flow.send("acceptdisclaimers", disclaimers.fields());
    flow.proceed(step, reply);
    if (reply.answer.status === "error" && reply.answer.disclaimers_required)
      disclaimers.update(reply.answer.disclaimers_required);
  });
  step.show();
}
