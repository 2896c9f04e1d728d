/** Moved to the shared vocabulary (`ui/src/shared/format.ts`); kept so older imports still work. */
export * from "../../shared/format";
