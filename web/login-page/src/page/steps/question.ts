import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { clearWhenWrong } from "../typed-secret.js";
import { Step } from "../view.js";
import { text } from "../words.js";

/** recovery-checkquestion: the answer to the user's control question, which is the field's label. */
export function showQuestion(flow: Flow, answer: Answer): void {
  const step = new Step(text("question.title"));
  const field = step.field({
    label: answer.control_question ?? text("question.answerLabel"),
    name: "control_answer",
    autocomplete: "off",
  });
  step.submit(text("common.continue"), async () => {
    const reply = await flow.send("recovery/checkquestion", { control_answer: field.value });
    flow.proceed(step, reply);
    clearWhenWrong(reply, field);
  });
  step.action(text("common.backToSignIn"), () => flow.restart());
  step.show();
}
