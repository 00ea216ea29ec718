CREATE TABLE "notices_sent" (
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"event" text NOT NULL,
	"sent_at" timestamp with time zone[] NOT NULL,
	CONSTRAINT "notices_sent_company_id_user_id_event_pk" PRIMARY KEY("company_id","user_id","event")
);
--> statement-breakpoint
ALTER TABLE "notices_sent" ADD CONSTRAINT "notices_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;