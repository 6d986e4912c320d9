/**
 * The banner every page of a test program shows (src/domain/programs/test-program.ts): nothing done here touches real
 * applications, and its mail is not sent.
 */
export function TestProgramBanner() {
  return (
    <section class="usa-alert usa-alert--warning test-program-banner" aria-label="Test program">
      <div class="usa-alert__body">
        <p class="usa-alert__heading"><strong>Test program</strong></p>
        <p class="usa-alert__text">
          This is a test copy of a program. Its applications are not real, its mail is not sent (admins read it in the
          console), and it may be reset at any time.
        </p>
      </div>
    </section>
  );
}
