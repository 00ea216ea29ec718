import { deviceName } from "@auth/i18n/device-names.js";
import type { SessionAuthentication } from "./authentication.js";
import type { Flow } from "./flow.js";
import { element, type Step } from "./view.js";
import { text, words } from "./words.js";

/** One session as auth/sessions lists it (docs/api-contract.md, "Session management"). */
interface ListedSession {
  session_id: string;
  user_agent: string;
  client_address: string;
  created_at: string;
  last_seen_at: string;
  current: boolean;
  authentication: SessionAuthentication;
}

/**
 * The signed-in user's sessions (auth/sessions), each but this one with a button that ends it, and
 * a button that ends all the others (auth/sessions/end). Each is named by its device, from the user
 * agent the client sent (device-name.ts).
 */
export class SessionList {
  readonly #list = element("ul", { class: "sessions" });
  readonly #endOthers: HTMLButtonElement;
  #current: ListedSession | undefined;

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
  ) {
    const headingId = "sessions-heading";
    step.append(
      element(
        "section",
        { "aria-labelledby": headingId },
        element("h2", { id: headingId }, text("sessions.heading")),
        this.#list,
      ),
    );
    this.#endOthers = step.action(text("sessions.endOthers"), () => this.#end({ others: true }));
    this.#endOthers.hidden = true;
  }

  /** Asks for the sessions and shows them. */
  async load(): Promise<void> {
    const reply = await this.flow.send("sessions");
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply);
      return;
    }
    const sessions = (reply.answer.sessions ?? []) as ListedSession[];
    this.#current = sessions.find((session) => session.current);
    this.#list.replaceChildren(...sessions.map((session) => this.#item(session)));
    this.#endOthers.hidden = !sessions.some((session) => !session.current);
  }

  /** How this session was authenticated, as the list said when it last came; undefined before. */
  get authentication(): SessionAuthentication | undefined {
    return this.#current?.authentication;
  }

  #item(session: ListedSession): HTMLLIElement {
    const device = deviceName(session.user_agent, words());
    const details = text("sessions.details", {
      address: session.client_address,
      createdAt: new Date(session.created_at),
      lastSeenAt: new Date(session.last_seen_at),
    });
    const item = element(
      "li",
      {},
      element("span", { class: "device" }, device),
      element(
        "span",
        { class: "hint" },
        session.current ? `${text("sessions.thisSession")} ${details}` : details,
      ),
    );
    if (!session.current) {
      const end = element("button", { type: "button", class: "secondary end-session" }, text("sessions.end"));
      end.setAttribute("aria-label", text("sessions.endLabel", { device }));
      end.addEventListener(
        "click",
        () => void this.step.run(() => this.#end({ session_id: session.session_id })),
      );
      item.append(end);
    }
    return item;
  }

  async #end(body: { session_id: string } | { others: true }): Promise<void> {
    const reply = await this.flow.send("sessions/end", body);
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply);
      return;
    }
    // The list first, then the notice: the step takes no other action until this handler returns.
    await this.load();
    this.step.notice(text("sessions.ended", { count: reply.answer.ended ?? 0 }));
  }
}
