import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import type { Answer } from "./api.js";
import type { Flow } from "./flow.js";
import { type ListedPasskey, passkeyDetails } from "./listed-passkey.js";
import { registration } from "./passkey-ceremony.js";
import { element, newId, type Step } from "./view.js";
import { text } from "./words.js";

/** What the signed-in view does after a new factor: the sessions again (the others ended), the backup codes offered. */
export type OnEnrolled = (answer: Answer) => Promise<void>;

/** At most, as identity keeps them. */
const nameLength = 64;

/** The refusals of every call here: a passkey is changed only from a recent sign-in. */
const refusals = () => ({ "auth.reauthentication.required": text("passkeys.reauthenticate") });

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
  readonly #none = element("p", {}, text("passkeys.none"));
  readonly #name: HTMLInputElement;
  #passkeys: ListedPasskey[] = [];

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
    private readonly onEnrolled: OnEnrolled,
  ) {
    this.#heading = element("h2", { id: newId("heading"), tabindex: "-1" }, text("passkeys.heading"));
    const nameId = newId("passkey_name");
    const hintId = newId("hint");
    this.#name = element("input", {
      id: nameId,
      type: "text",
      name: "passkey_name",
      autocomplete: "off",
      maxlength: String(nameLength),
      "aria-describedby": hintId,
    });
    const add = element(
      "form",
      { novalidate: "" },
      element(
        "div",
        { class: "field" },
        element("label", { for: nameId }, text("passkeys.nameLabel")),
        element("p", { id: hintId, class: "hint" }, text("passkeys.nameHint")),
        this.#name,
      ),
      element("button", { type: "submit", class: "secondary" }, text("passkeys.add")),
    );
    add.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#add());
    });
    const unsupported = element("p", { class: "hint" }, text("passkeys.unsupported"));
    add.hidden = !browserSupportsWebAuthn();
    unsupported.hidden = !add.hidden;
    this.#section = element(
      "section",
      { "aria-labelledby": this.#heading.id },
      this.#heading,
      element("p", { class: "hint" }, text("passkeys.intro")),
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
      this.flow.fail(this.step, reply, refusals());
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
          text("passkeys.rename"),
          () => this.#askName(passkey, actions, showActions),
          text("passkeys.renameLabel", { name: passkey.name }),
        ),
        this.#button(
          text("passkeys.remove"),
          () => this.#askRemoval(passkey, actions, showActions),
          text("passkeys.removeLabel", { name: passkey.name }),
        ),
      );
    };
    showActions();
    return item;
  }

  /** A button of the list; `label` names its passkey too, for those who hear it out of its line. */
  #button(shown: string, onClick: () => void, label?: string): HTMLButtonElement {
    const button = element("button", { type: "button", class: "secondary" }, shown);
    if (label) button.setAttribute("aria-label", label);
    button.addEventListener("click", onClick);
    return button;
  }

  /** The passkey's new name, in place of its buttons. */
  #askName(passkey: ListedPasskey, actions: HTMLElement, back: () => void): void {
    const id = newId("passkey_name");
    const name = element("input", { id, type: "text", autocomplete: "off", maxlength: String(nameLength) });
    name.value = passkey.name;
    const form = element(
      "form",
      { novalidate: "", class: "rename" },
      element("label", { for: id }, text("passkeys.newNameLabel", { name: passkey.name })),
      name,
      element("button", { type: "submit" }, text("passkeys.saveName")),
      this.#button(text("passkeys.cancel"), () => {
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
      text("passkeys.removeLabel", { name: passkey.name }),
    );
    remove.addEventListener("click", () => void this.step.run(() => this.#remove(passkey)));
    actions.replaceChildren(
      element("p", { id: questionId }, text("passkeys.removeQuestion", { name: passkey.name })),
      remove,
      this.#button(text("passkeys.keep"), () => {
        back();
        actions.querySelectorAll("button")[1]?.focus();
      }),
    );
    remove.focus();
  }

  async #add(): Promise<void> {
    const enrol = await this.flow.send("passkeys/enrol");
    if (enrol.answer.status !== "success" || !enrol.answer.options) {
      this.flow.fail(this.step, enrol, refusals());
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
        ...refusals(),
        "auth.passkey.invalid": text("passkeys.newRefused"),
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
        text("passkeys.added", { name: added.name }),
        ...(ended > 0 ? [text("signedIn.otherSessionsEnded", { count: ended })] : []),
        ...(reply.answer.backup_codes ? [text("backupCodes.first")] : []),
      ].join(" "),
    );
  }

  async #rename(passkey: ListedPasskey, name: string): Promise<void> {
    const reply = await this.flow.send("passkeys/rename", { passkey_id: passkey.id, name });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        ...refusals(),
        "request.validation.failed": text("passkeys.nameTooLong", { max: nameLength }),
      });
      return;
    }
    await this.load();
    this.#heading.focus();
    this.step.notice(text("passkeys.renamed", { name: passkey.name, newName: name }));
  }

  async #remove(passkey: ListedPasskey): Promise<void> {
    const reply = await this.flow.send("passkeys/remove", { passkey_id: passkey.id });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, refusals());
      return;
    }
    await this.load();
    this.#heading.focus();
    this.step.notice(text("passkeys.removed", { name: passkey.name }));
  }
}
