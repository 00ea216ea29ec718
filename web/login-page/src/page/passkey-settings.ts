import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import type { Answer } from "./api.js";
import type { Flow } from "./flow.js";
import { type ListedPasskey, passkeyDetails } from "./listed-passkey.js";
import { registration } from "./passkey-ceremony.js";
import { texts } from "./texts.js";
import { element, newId, type Step } from "./view.js";

const words = texts.passkeys;

/** What the signed-in view does after a new factor: the sessions again (the others ended), the backup codes offered. */
export type OnEnrolled = (answer: Answer) => Promise<void>;

/** At most, as identity keeps them. */
const nameLength = "64";

const messages = { "auth.reauthentication.required": words.reauthenticate };

/**
 * "Passkeys" in the signed-in view (docs/decisions.md, "Passkeys"): the user's passkeys
 * (auth/passkeys/list) with their kind and dates, each renamed or removed (auth/passkeys/rename,
 * auth/passkeys/remove), and a new one added with a name (auth/passkeys/enrol, the browser's
 * ceremony, auth/passkeys/confirm), which ends the user's other sessions. Hidden for a company
 * without passkeys, whose list answers `auth.passkey.invalid`.
 */
export class PasskeySettings {
  readonly #section: HTMLElement;
  readonly #heading: HTMLHeadingElement;
  readonly #list = element("ul", { class: "passkeys" });
  readonly #none = element("p", {}, words.none);
  readonly #name: HTMLInputElement;
  #passkeys: ListedPasskey[] = [];

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
    private readonly onEnrolled: OnEnrolled,
  ) {
    this.#heading = element("h2", { id: newId("heading"), tabindex: "-1" }, words.heading);
    const nameId = newId("passkey_name");
    const hintId = newId("hint");
    this.#name = element("input", {
      id: nameId,
      type: "text",
      name: "passkey_name",
      autocomplete: "off",
      maxlength: nameLength,
      "aria-describedby": hintId,
    });
    const add = element(
      "form",
      { novalidate: "" },
      element(
        "div",
        { class: "field" },
        element("label", { for: nameId }, words.name),
        element("p", { id: hintId, class: "hint" }, words.nameHint),
        this.#name,
      ),
      element("button", { type: "submit", class: "secondary" }, words.add),
    );
    add.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#add());
    });
    const unsupported = element("p", { class: "hint" }, words.unsupported);
    add.hidden = !browserSupportsWebAuthn();
    unsupported.hidden = !add.hidden;
    this.#section = element(
      "section",
      { "aria-labelledby": this.#heading.id },
      this.#heading,
      element("p", { class: "hint" }, words.intro),
      this.#list,
      this.#none,
      add,
      unsupported,
    );
    // Shown once the list has come: a company without passkeys has none to show.
    this.#section.hidden = true;
    step.append(this.#section);
  }

  /** Asks for the user's passkeys and shows them. */
  async load(): Promise<void> {
    const reply = await this.flow.send("passkeys/list");
    if (reply.answer.error_code === "auth.passkey.invalid") return;
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, messages);
      return;
    }
    this.#show((reply.answer.passkeys ?? []) as ListedPasskey[]);
  }

  #show(passkeys: ListedPasskey[]): void {
    this.#passkeys = passkeys;
    this.#list.replaceChildren(...passkeys.map((passkey) => this.#item(passkey)));
    this.#none.hidden = passkeys.length > 0;
    this.#section.hidden = false;
  }

  #item(passkey: ListedPasskey): HTMLLIElement {
    const actions = element("div", { class: "item-actions" });
    const item = element(
      "li",
      {},
      element("span", { class: "device" }, passkey.name),
      element("span", { class: "hint" }, passkeyDetails(passkey)),
      actions,
    );
    const showActions = () => {
      actions.replaceChildren(
        this.#button(
          words.rename,
          () => this.#askName(passkey, actions, showActions),
          words.renameLabel(passkey.name),
        ),
        this.#button(
          words.remove,
          () => this.#askRemoval(passkey, actions, showActions),
          words.removeLabel(passkey.name),
        ),
      );
    };
    showActions();
    return item;
  }

  /** A button of the list; `label` names its passkey too, for those who hear it out of its line. */
  #button(text: string, onClick: () => void, label?: string): HTMLButtonElement {
    const button = element("button", { type: "button", class: "secondary" }, text);
    if (label) button.setAttribute("aria-label", label);
    button.addEventListener("click", onClick);
    return button;
  }

  /** The passkey's new name, in place of its buttons. */
  #askName(passkey: ListedPasskey, actions: HTMLElement, back: () => void): void {
    const id = newId("passkey_name");
    const name = element("input", { id, type: "text", autocomplete: "off", maxlength: nameLength });
    name.value = passkey.name;
    const form = element(
      "form",
      { novalidate: "", class: "rename" },
      element("label", { for: id }, words.newName(passkey.name)),
      name,
      element("button", { type: "submit" }, words.saveName),
      this.#button(words.cancel, () => {
        back();
        actions.querySelector("button")?.focus();
      }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#rename(passkey, name.value.trim()));
    });
    actions.replaceChildren(form);
    name.select();
  }

  /** Asks before removing: a passkey removed no longer signs in. */
  #askRemoval(passkey: ListedPasskey, actions: HTMLElement, back: () => void): void {
    const questionId = newId("question");
    const remove = element(
      "button",
      { type: "button", "aria-describedby": questionId },
      words.removeLabel(passkey.name),
    );
    remove.addEventListener("click", () => void this.step.run(() => this.#remove(passkey)));
    actions.replaceChildren(
      element("p", { id: questionId }, words.removeQuestion(passkey.name)),
      remove,
      this.#button(words.keep, () => {
        back();
        actions.querySelectorAll("button")[1]?.focus();
      }),
    );
    remove.focus();
  }

  async #add(): Promise<void> {
    const enrol = await this.flow.send("passkeys/enrol");
    if (enrol.answer.status !== "success" || !enrol.answer.options) {
      this.flow.fail(this.step, enrol, messages);
      return;
    }
    const ceremony = await registration(enrol.answer.options);
    if (!("credential" in ceremony)) {
      if (ceremony.failure) this.step.error(ceremony.failure);
      return;
    }
    const name = this.#name.value.trim();
    const reply = await this.flow.send("passkeys/confirm", {
      credential: ceremony.credential,
      ...(name ? { name } : {}),
    });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        ...messages,
        "auth.passkey.invalid": words.newNotAccepted,
      });
      return;
    }
    this.#name.value = "";
    // Shown from the answer, not listed again: a first passkey asks for a second factor, so this
    // session, signed in without one, may list nothing more (docs/security.md, "Changing a factor").
    const added = reply.answer.passkey as ListedPasskey;
    this.#show([...this.#passkeys, added]);
    // The sessions first: the step takes no other action until this handler returns, so the notice
    // comes when the page is ready for the next click.
    await this.onEnrolled(reply.answer);
    const ended = reply.answer.sessions_ended ?? 0;
    this.step.notice(
      [
        words.added(added.name),
        ...(ended > 0 ? [texts.sessions.othersEnded(ended)] : []),
        ...(reply.answer.backup_codes ? [texts.backupCodes.firstNotice] : []),
      ].join(" "),
    );
  }

  async #rename(passkey: ListedPasskey, name: string): Promise<void> {
    const reply = await this.flow.send("passkeys/rename", { passkey_id: passkey.id, name });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        ...messages,
        "request.validation.failed": words.nameTooLong,
      });
      return;
    }
    await this.load();
    this.#heading.focus();
    this.step.notice(words.renamed(passkey.name, name));
  }

  async #remove(passkey: ListedPasskey): Promise<void> {
    const reply = await this.flow.send("passkeys/remove", { passkey_id: passkey.id });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, messages);
      return;
    }
    await this.load();
    this.#heading.focus();
    this.step.notice(words.removed(passkey.name));
  }
}
