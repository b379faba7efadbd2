console.log("benchmarks: not written yet");
