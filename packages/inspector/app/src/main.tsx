import { render } from "preact";
import { App } from "./app.js";
import { startStore } from "./store.js";
import "./style.css";

render(<App />, document.getElementById("root") as HTMLElement);
void startStore();
