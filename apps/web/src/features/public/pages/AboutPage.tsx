import { Breadcrumb, Typography } from 'antd';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';
import { Section } from '../components.tsx';

/** About (docs/web.md "Shell"): breadcrumbs home > dashboards > about and a description. */
export default function AboutPage() {
  return (
    <Section>
      <Breadcrumb items={[{ title: <Link to="/">home</Link> }, { title: <Link to="/dashboards">dashboards</Link> }, { title: 'about' }]} />
      <Typography.Title style={{ marginTop: 16 }}>About {PRODUCT_NAME}</Typography.Title>
      <Typography.Paragraph style={{ fontSize: 17, maxWidth: 760 }}>
        {PRODUCT_NAME} is a multi-tenant operations console for companies that install and service security devices. Each company (a tenant)
        connects its customers' device clouds as portals and sees, in one place, the state of every camera, intercom, access-control panel,
        alarm and environmental sensor it looks after.
      </Typography.Paragraph>
      <Typography.Paragraph style={{ fontSize: 17, maxWidth: 760 }}>
        Service cases, alerts, licenses and reports live next to the device data they are about, so a project manager, an admin and a
        salesperson all work from the same facts. A platform administrator manages the tenants.
      </Typography.Paragraph>
    </Section>
  );
}
