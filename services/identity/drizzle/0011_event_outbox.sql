CREATE TABLE IF NOT EXISTS "event_outbox" (
  "position" bigserial PRIMARY KEY,
  "id" uuid NOT NULL UNIQUE,
  "payload" text NOT NULL,
  "recorded_at" timestamp with time zone NOT NULL DEFAULT now()
);