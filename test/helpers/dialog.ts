// Kept only for test/session/shutdown.test.ts, which is being rewritten on another branch;
// the dialog driver lives in test/support/dialog.ts. Delete this file once that test imports from there.
export { completeDialog } from '../support/dialog';
