import { useAppInfo } from "./useAppInfo";
import { StatusBar } from "./StatusBar";
import { ConnectionsSidebar } from "../features/connections/ConnectionsSidebar";

/** The application shell: the work area above, the status bar below. */
export function App() {
  const appInfo = useAppInfo();
  return (
    <div className="shell">
      <ConnectionsSidebar />
      <main className="work-area">
        <h1 className="brand">DynoTable</h1>
        <p className="tagline">DynamoDB tables, drawn as item collections.</p>
      </main>
      <StatusBar appInfo={appInfo} />
    </div>
  );
}
