import { Card, Typography } from 'antd';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PortalSearch } from '../components/PortalSearch.tsx';

/** Customer search as a page (the header's search box, for narrow screens too). */
export default function SearchPage() {
  return (
    <>
      <PageHeader title="Search" />
      <Card>
        <Typography.Paragraph type="secondary">
          Type two or more letters of a customer's name, then pick it to open its portal.
        </Typography.Paragraph>
        <PortalSearch autoFocus wide />
      </Card>
    </>
  );
}
