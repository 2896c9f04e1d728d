/** Moved to the shared vocabulary (`ui/src/shared/attributeValue.ts`); kept so older imports still work. */
export * from "../../shared/attributeValue";
