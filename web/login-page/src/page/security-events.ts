import type { Flow } from "./flow.js";
import { eventDetails, eventLabel, type ListedEvent } from "./listed-event.js";
import { messageFor } from "./messages.js";
import { element, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * "Recent security activity" in the signed-in view: the user's own security events
 * (auth/events), each as a short label with when and from where, this session's and the failures
 * marked. Only this list needs the audit service: when it cannot be shown the rest of the view
 * stays as it is.
 */
export class SecurityEvents {
  readonly #list = element("ul", { class: "events" });
  readonly #empty = element("p", { class: "hint" }, text("events.none"));
  readonly #problem = element("p", { class: "hint" });

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
  ) {
    const headingId = "events-heading";
    this.#empty.hidden = true;
    this.#problem.hidden = true;
    step.append(
      element(
        "section",
        { "aria-labelledby": headingId },
        element("h2", { id: headingId }, text("events.heading")),
        this.#list,
        this.#empty,
        this.#problem,
      ),
    );
  }

  /** Asks for the user's recent events and shows them. */
  async load(): Promise<void> {
    const reply = await this.flow.send("events");
    if (reply.answer.status !== "success") {
      if (this.flow.endsSession(reply)) {
        this.flow.fail(this.step, reply);
        return;
      }
      this.#problem.textContent = messageFor(reply, { "service.unavailable": text("events.unavailable") });
      this.#problem.hidden = false;
      return;
    }
    const events = (reply.answer.events ?? []) as ListedEvent[];
    this.#list.replaceChildren(...events.map((event) => this.#item(event)));
    this.#empty.hidden = events.length > 0;
    this.#problem.hidden = true;
  }

  #item(event: ListedEvent): HTMLLIElement {
    return element(
      "li",
      event.outcome === "failed" ? { class: "failed" } : {},
      element("span", { class: "event" }, eventLabel(event)),
      element("span", { class: "hint" }, eventDetails(event)),
    );
  }
}
