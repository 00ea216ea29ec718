import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { texts } from "../texts.js";
import { clearWhenWrong } from "../typed-secret.js";
import { Step } from "../view.js";

/** recovery-checkquestion: the answer to the user's control question, which is the field's label. */
export function showQuestion(flow: Flow, answer: Answer): void {
  const step = new Step(texts.question.title);
  const field = step.field({
    label: answer.control_question ?? texts.question.answer,
    name: "control_answer",
    autocomplete: "off",
  });
  step.submit(texts.question.continue, async () => {
    const reply = await flow.send("recovery/checkquestion", { control_answer: field.value });
    flow.proceed(step, reply);
    clearWhenWrong(reply, field);
  });
  step.action(texts.recovery.back, () => flow.restart());
  step.show();
}
