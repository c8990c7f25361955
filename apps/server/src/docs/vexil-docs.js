// Starts Swagger UI on the document this server serves. A separate file, not an inline script,
// so that the page's Content-Security-Policy can allow scripts from this origin only.
window.ui = SwaggerUIBundle({
  url: "/docs/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // The default sends the document to a public validator for a badge; nothing leaves this origin.
  validatorUrl: null,
  displayRequestDuration: true,
  tryItOutEnabled: false,
  // Sections start closed: with every section open at once, Swagger UI 5.35 stops drawing after a
  // few operations of a document of this size (about 160 operations), with no error; closed, every
  // section is listed and each opens in full. A reader opens the section they came for.
  docExpansion: "none",
});
