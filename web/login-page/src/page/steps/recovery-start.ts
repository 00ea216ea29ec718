import type { Answer } from "../api.js";
import { Captcha } from "../captcha.js";
import type { Flow } from "../flow.js";
import { element, newId, Step } from "../view.js";

/** The ways to prove who one is (spec 4.10); none chosen lets the company's order decide. */
const methods = [
  { method: "", label: "The way I have set up" },
  { method: "PHONE", label: "A code by SMS" },
  { method: "MAIL", label: "A link by e-mail" },
  { method: "QUESTION", label: "My control question" },
];

/** auth/recovery/recover: the login ID, the way to prove who one is, and the captcha it always needs. */
export function showRecoveryStart(flow: Flow): void {
  const step = new Step("Recover access", "Prove who you are, then choose a new password.");
  const loginId = step.field({
    label: "Phone number, e-mail or login name",
    name: "login_id",
    autocomplete: "username",
    value: flow.loginId,
  });
  const name = newId("method");
  const choices = methods.map(({ method, label }, index) => {
    const id = newId("method");
    const input = element("input", { type: "radio", name, id, value: method });
    input.checked = index === 0;
    return { input, box: element("div", { class: "check" }, input, element("label", { for: id }, label)) };
  });
  step.add(
    element(
      "fieldset",
      {},
      element("legend", {}, "How do you want to prove who you are?"),
      ...choices.map(({ box }) => box),
    ),
  );
  const captcha = new Captcha(step, true);
  step.submit("Continue", async () => {
    flow.loginId = loginId.value.trim();
    const method = choices.find(({ input }) => input.checked)?.input.value;
    const reply = await flow.begin("recovery/recover", {
      login_id: flow.loginId,
      ...captcha.fields(),
      ...(method ? { method } : {}),
    });
    if (reply.answer.verification === "MAIL") showMailSent(flow, reply.answer);
    else flow.proceed(step, reply);
  });
  step.action("Back to sign in", () => flow.restart());
  step.show();
}

/** MAIL: no session; the link in the e-mail leads to this page's recovery link route. */
function showMailSent(flow: Flow, answer: Answer): void {
  const step = new Step(
    "Check your e-mail",
    `We sent a link to ${answer.user_email}. Open it to choose a new password.`,
  );
  step.submit("Back to sign in", () => flow.restart());
  step.show();
}
