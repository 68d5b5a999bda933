import TrainTrackerCommands

await TrainTrackerCommand.runMain()
