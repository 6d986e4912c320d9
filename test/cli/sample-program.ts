/** A small valid program file as plain data; each call returns a fresh copy that a test may change. */
export function sampleProgram(): Record<string, unknown> & {
  customLists: Record<string, unknown>[]; fields: Record<string, unknown>[]; statuses: Record<string, unknown>[]; forms: Record<string, unknown>[];
} {
  return {
    customId: 'PV',
    name: 'Small PV',
    numberPrefix: 'PV',
    customLists: [{ customId: 'Makes', name: 'Inverter makes', choices: ['SMA', { value: 'ENP', label: 'Enphase' }] }],
    fields: [
      { customId: 'Customer', name: 'Customer name', type: 'text', maxLength: 100 },
      { customId: 'Size', name: 'System size', type: 'number', min: 0, max: 50 },
      { customId: 'Make', name: 'Inverter make', type: 'choice', list: 'Makes' },
      { customId: 'Account', name: 'Account number', type: 'text', sensitive: true },
      { customId: 'Serials', name: 'Serial numbers', type: 'text', multiValue: true },
    ],
    statuses: [
      { customId: 'Unsubmitted', name: 'Unsubmitted', initial: true, next: ['Review'] },
      { customId: 'Review', name: 'In review', next: ['Approved', 'Rejected'] },
      { customId: 'Approved', name: 'Approved' },
      { customId: 'Rejected', name: 'Rejected' },
    ],
    forms: [
      {
        customId: 'Apply', name: 'Application', availableIn: ['Unsubmitted'], leadsTo: 'Review',
        fields: [{ field: 'Customer', required: true }, 'System size', 'Make', 'Account'],
        attachments: [{ customId: 'SitePlan', name: 'Site plan', allowedTypes: ['application/pdf'], required: true }],
      },
      { customId: 'Finish', name: 'Completion', availableIn: ['Approved'], fields: ['Serials'] },
    ],
  };
}
