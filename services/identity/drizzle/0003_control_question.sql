ALTER TABLE "users" ADD COLUMN "control_question" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "control_answer_hash" text;