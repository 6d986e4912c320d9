/** A published version of a program: its number, who published it and when, and the file it was published from. */
export interface ProgramVersion {
  programId: string;
  /** 1 for the first version recorded, then one more per publication that changed the program. */
  version: number;
  publishedAt: number;
  /** The user who published it; null for the operator at the command line (or the demo seed). */
  publishedBy: string | null;
  /** Who published it, in words: the user's name and e-mail, or "operator (command line)". */
  publisher: string;
  fileName: string;
  /** The SHA-256 of the file's text (UTF-8), in hex. */
  sha256: string;
  /** What the publication changed, one line per change (as `program import` prints them). */
  changes: string[];
}

/** A program file uploaded in the console, kept from its review until it is published. */
export interface ProgramUpload { id: string; agencyId: string; uploadedBy: string; uploadedAt: number; fileName: string; sha256: string; content: string }
