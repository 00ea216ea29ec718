CREATE TABLE "items" (
	"id" text PRIMARY KEY NOT NULL
);
