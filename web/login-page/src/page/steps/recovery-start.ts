import type { MessageKey } from "@auth/i18n/catalogue.js";
import type { Answer } from "../api.js";
import { Captcha } from "../captcha.js";
import type { Flow } from "../flow.js";
import { element, newId, Step } from "../view.js";
import { text } from "../words.js";

/** The ways to prove who one is (spec 4.10); none chosen lets the company's order decide. */
const methods: Array<{ method: string; label: MessageKey<"page"> }> = [
  { method: "", label: "recoveryStart.methodDefault" },
  { method: "PHONE", label: "recoveryStart.methodPhone" },
  { method: "MAIL", label: "recoveryStart.methodMail" },
  { method: "QUESTION", label: "recoveryStart.methodQuestion" },
];

/** auth/recovery/recover: the login ID, the way to prove who one is, and the captcha it always needs. */
export function showRecoveryStart(flow: Flow): void {
  const step = new Step(text("recoveryStart.title"), text("recoveryStart.intro"));
  const loginId = step.field({
    label: text("common.loginId"),
    name: "login_id",
    autocomplete: "username",
    value: flow.loginId,
  });
  const name = newId("method");
  const choices = methods.map(({ method, label }, index) => {
    const id = newId("method");
    const input = element("input", { type: "radio", name, id, value: method });
    input.checked = index === 0;
    return {
      input,
      box: element("div", { class: "check" }, input, element("label", { for: id }, text(label))),
    };
  });
  step.add(
    element(
      "fieldset",
      {},
      element("legend", {}, text("recoveryStart.methodLegend")),
      ...choices.map(({ box }) => box),
    ),
  );
  const captcha = new Captcha(step, true);
  step.submit(text("common.continue"), async () => {
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
  step.action(text("common.backToSignIn"), () => flow.restart());
  step.show();
}

/** MAIL: no session; the link in the e-mail leads to this page's recovery link route. */
function showMailSent(flow: Flow, answer: Answer): void {
  const step = new Step(text("mailSent.title"), text("mailSent.intro", { email: answer.user_email ?? "" }));
  step.submit(text("common.backToSignIn"), () => flow.restart());
  step.show();
}
