/** Why a console action or filter was refused (nothing was changed), as a USWDS error alert; nothing when there is none. */
export function ConsoleErrorAlert(p: { message: string | null | undefined }) {
  return p.message ? (
    <div class="usa-alert usa-alert--error usa-alert--slim" role="alert"><div class="usa-alert__body"><p class="usa-alert__text">{p.message}</p></div></div>
  ) : null;
}
