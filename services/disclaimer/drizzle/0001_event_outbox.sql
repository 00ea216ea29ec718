CREATE TABLE IF NOT EXISTS "event_outbox" (
  "position" bigserial PRIMARY KEY,
  "id" uuid NOT NULL,
  "payload" text NOT NULL,
  "recorded_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "event_outbox_id_unique" UNIQUE ("id")
);