"""The application: wires camera, vision, engine, voice and recording (`eleusis`)."""
