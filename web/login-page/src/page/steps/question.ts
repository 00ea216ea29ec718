import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { clearWhenWrong } from "../typed-secret.js";
import { Step } from "../view.js";

/** recovery-checkquestion: the answer to the user's control question, which is the field's label. */
export function showQuestion(flow: Flow, answer: Answer): void {
  const step = new Step("Answer your control question");
  const field = step.field({
    label: answer.control_question ?? "Your answer",
    name: "control_answer",
    autocomplete: "off",
  });
  step.submit("Continue", async () => {
    const reply = await flow.send("recovery/checkquestion", { control_answer: field.value });
    flow.proceed(step, reply);
    clearWhenWrong(reply, field);
  });
  step.action("Back to sign in", () => flow.restart());
  step.show();
}
