import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roleNamed } from '../../src/domain/roles/access.ts';
import type { CustomRole } from '../../src/model/model.ts';

const inspector: CustomRole = { customId: 'inspector', name: 'Inspector', privileges: ['readProjects', 'moveStatus'], transitions: [{ from: 'A', to: ['B'] }] };

describe('roleNamed: the roles of a program', () => {
  it('builds a frozen program\'s role once, apart for the revealSensitive flag and for each definition', () => {
    const program: { roles: CustomRole[] } = Object.freeze({ roles: [inspector] });
    Object.freeze(program.roles);
    const role = roleNamed(program, 'inspector');
    assert.equal(roleNamed(program, 'inspector'), role, 'the same role object for the same frozen definition');
    assert.deepEqual([...role!.privileges].sort(), ['moveStatus', 'readProjects']);
    assert.deepEqual(role!.transitions, new Map([['A', new Set(['B'])]]));
    assert.ok(roleNamed(program, 'inspector', true)!.privileges.has('revealSensitive'));
    assert.ok(!roleNamed(program, 'inspector')!.privileges.has('revealSensitive'), 'the sensitive grant\'s role is kept apart');
    assert.equal(roleNamed(program, 'auditor'), null);
    // A new definition is a new object: its roles are its own.
    const changed: { roles: CustomRole[] } = Object.freeze({ roles: [{ ...inspector, privileges: ['readProjects'] }] });
    assert.deepEqual([...roleNamed(changed, 'inspector')!.privileges], ['readProjects']);
    assert.ok(roleNamed(program, 'admin')!.privileges.has('moveStatus'));
  });

  it('reads a program that is not frozen afresh every time, so a change to it shows', () => {
    const program: { roles: CustomRole[] } = { roles: [{ ...inspector }] };
    assert.ok(roleNamed(program, 'inspector')!.privileges.has('moveStatus'));
    program.roles[0]!.privileges = ['readProjects'];
    assert.ok(!roleNamed(program, 'inspector')!.privileges.has('moveStatus'));
  });
});
