// The skills the conformance server serves for the Skills extension scenarios (sep-2640-*): one skill at
// the top level with a reference file and nested template directories (for resources/directory/read's
// subdirectory checks), and one under an organizational prefix.
import type { Server } from "@mcpkit/server";

const PDF_SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1.0"
---

# PDF processing

Read references/FORMS.md for the form fields, then pick a template from templates/.
`;

const REFUNDS_SKILL_MD = `---
name: refunds
description: Process customer refund requests per company policy
---

# Refunds

Follow the policy; see examples/email.md for the customer email.
`;

/** Registers the fixture skills on `server` (which must be created with `skills: { directoryRead: true }`). */
export function registerConformanceSkills(server: Server): void {
  server.registerSkill({
    skillMd: PDF_SKILL_MD,
    files: {
      "references/FORMS.md": "# Form fields\n\nName, date, signature.\n",
      "templates/invoice.md": "# Invoice\n",
      "templates/regional/eu-invoice.md": "# EU invoice\n",
    },
  });
  server.registerSkill({
    skillMd: REFUNDS_SKILL_MD,
    prefix: "acme/billing",
    files: { "examples/email.md": "Dear customer, your refund is on its way.\n" },
  });
}
