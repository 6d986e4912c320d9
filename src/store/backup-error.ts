/**
 * Why a backup or restore was refused: the target holds data (`target`), the archive is damaged or not an apas
 * backup (`archive`), the installation or configuration does not allow it (`setup`), or the configured key does not
 * open the sealed secrets the backup holds (`keys`). The CLI maps each to an exit code.
 */
export type BackupErrorKind = 'target' | 'archive' | 'setup' | 'keys';

/** An expected backup or restore failure; its message is meant for the operator as is. */
export class BackupError extends Error {
  readonly kind: BackupErrorKind;

  constructor(kind: BackupErrorKind, message: string) {
    super(message);
    this.name = 'BackupError';
    this.kind = kind;
  }
}
