import { readFileSync } from "node:fs";
import { testBudgets } from "@auth/testing";

/** A security event as the relays append it to the events file (docs/operations.md, "Security events"). */
export interface RecordedEvent {
  id: string;
  source: string;
  type: string;
  time: string;
  subject: string;
  companyid: string;
  userid?: string;
  sessionid?: string;
  traceid?: string;
  clientaddress?: string;
  outcome: string;
  [detail: string]: unknown;
}

export function recordedEvents(eventsFile: string): RecordedEvent[] {
  try {
    return readFileSync(eventsFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedEvent);
  } catch {
    return [];
  }
}

/** Waits until the services' relays have appended an event that matches (they poll their outboxes). */
export async function eventRecorded(
  eventsFile: string,
  matches: (event: RecordedEvent) => boolean,
  withinMs = testBudgets.testMs / 2,
): Promise<RecordedEvent> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = recordedEvents(eventsFile).find(matches);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no such security event in ${eventsFile} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
