import { readFileSync } from "node:fs";
import { Outcome } from "@auth/proto/events";
import { describe, expect, it } from "vitest";
import { detailFields, eventCatalogue } from "./catalogue.js";
import { newEvent, systemOrigin } from "./event.js";

/** The rows of docs/operations.md's table of the catalogue ("Security events"), cell by cell. */
function documentedRows(): string[][] {
  const operations = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8");
  const [, section = ""] = operations.split("The catalogue (`packages/events/src/catalogue.ts`):");
  const [table = ""] = section.trim().split("\n\n");
  return table
    .split("\n")
    .slice(2)
    .map((row) =>
      row
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

describe("the catalogue of event types", () => {
  it('is the table of docs/operations.md, "Security events": each type, who records it, its detail, its meaning', () => {
    const catalogued = Object.entries(eventCatalogue).map(([type, entry]) => {
      const { sources, meaning, detail } = entry as {
        sources: readonly string[];
        meaning: string;
        detail?: string;
      };
      return [`\`${type}\``, sources.join(", "), detail ? `\`${detail}\`` : "—", meaning];
    });
    expect(documentedRows()).toEqual(catalogued);
  });

  it("has each detail of the contract carried by some type", () => {
    const carried = new Set(
      Object.values(eventCatalogue).map((entry) => ("detail" in entry ? entry.detail : "")),
    );
    expect(detailFields.filter((field) => !carried.has(field))).toEqual([]);
  });

  describe("auth.contact.changed", () => {
    const facts = { companyId: "c1", userId: "u1", outcome: Outcome.SUCCEEDED, origin: systemOrigin };

    it("is identity's, and carries the kind of address changed, phone or e-mail", () => {
      const event = newEvent("identity", {
        ...facts,
        type: "auth.contact.changed",
        detail: { contactChanged: { kind: "email" } },
      });
      expect(event).toMatchObject({ type: "auth.contact.changed", contactChanged: { kind: "email" } });
      expect(() =>
        newEvent("otp", {
          ...facts,
          type: "auth.contact.changed",
          detail: { contactChanged: { kind: "phone" } },
        }),
      ).toThrow(/does not record/);
    });

    it("is refused without its detail, or with another", () => {
      expect(() => newEvent("identity", { ...facts, type: "auth.contact.changed" })).toThrow(
        /carries contactChanged/,
      );
      expect(() =>
        newEvent("identity", {
          ...facts,
          type: "auth.contact.changed",
          detail: { otpSent: { channel: "email", purpose: "login" } },
        }),
      ).toThrow(/carries contactChanged/);
    });
  });
});
