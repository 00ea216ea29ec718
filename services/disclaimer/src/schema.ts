import { eventOutbox } from "@auth/events/pg";
import { boolean, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/** The events of the changes below, written in their transactions (docs/decisions.md, "Security events"). */
export { eventOutbox };

export const disclaimers = pgTable(
  "disclaimers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The identity service's company id; no foreign key, the company lives in another database. */
    companyId: uuid("company_id").notNull(),
    code: text("code").notNull(),
    active: boolean("active").notNull().default(true),
    currentVersion: integer("current_version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("disclaimers_company_code_key").on(table.companyId, table.code)],
);

export const disclaimerVersions = pgTable(
  "disclaimer_versions",
  {
    disclaimerId: uuid("disclaimer_id")
      .notNull()
      .references(() => disclaimers.id),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    link: text("link").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.disclaimerId, table.version] })],
);

/** Who accepted which version of which disclaimer, when and from where. Never updated or deleted. */
export const acceptances = pgTable(
  "acceptances",
  {
    disclaimerId: uuid("disclaimer_id")
      .notNull()
      .references(() => disclaimers.id),
    version: integer("version").notNull(),
    companyId: uuid("company_id").notNull(),
    userId: uuid("user_id").notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }).notNull().defaultNow(),
    clientAddress: text("client_address").notNull(),
  },
  (table) => [primaryKey({ columns: [table.disclaimerId, table.version, table.userId] })],
);

export const schema = { disclaimers, disclaimerVersions, acceptances, eventOutbox };
export type DisclaimerSchema = typeof schema;
